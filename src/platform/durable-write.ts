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
export function writeFileDurable(path: string, text: string | Uint8Array, o: { mode?: number } = {}): Promise<void> {
  return writeFileDurableWith(path, (write) => write(text), o);
}

/**
 * writeFileDurable for content written in pieces: `fill` calls `write` for each (a large file
 * written a slice per turn of the event loop). When `fill` throws, the temp file is removed and
 * `path` is left as it was.
 */
export async function writeFileDurableWith(
  path: string,
  fill: (write: (chunk: string | Uint8Array) => Promise<void>) => Promise<void>,
  o: { mode?: number } = {},
): Promise<void> {
  const mode = o.mode ?? 0o600;
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fh = await open(tmp, 'wx', mode);
    try {
      // writeFile continues from the handle's position: the chunks follow one another.
      await fill((chunk) => fh.writeFile(chunk));
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
