import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Replace the file at `path` whole or not at all, and durably: `text` goes to a private temp file
 * beside it, which is fsync'd, renamed over `path`, and then the folder is fsync'd so that the
 * rename survives a power loss. A crash leaves the old file or the new one, never half of either.
 * The temp file is created with `mode` (private by default), so the content is never readable by
 * others, even for a moment. The folder must exist.
 */
export async function writeFileDurable(path: string, text: string | Uint8Array, o: { mode?: number } = {}): Promise<void> {
  const mode = o.mode ?? 0o600;
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fh = await open(tmp, 'wx', mode);
    try {
      await fh.writeFile(text);
      await fh.chmod(mode); // a umask cannot widen the mode, but an odd file system may ignore it
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => {});
    throw e;
  }
  await fsyncDir(dirname(path));
}

/** Make the folder's entries (a rename, a removal) durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const d = await open(dir, 'r');
  try {
    await d.sync();
  } catch {
    // Some file systems refuse fsync on a folder; the rename itself is still atomic there.
  } finally {
    await d.close();
  }
}
