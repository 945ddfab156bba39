import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DIR_MODE, FILE_MODE } from '../../config/paths.js';

/**
 * Writes a file that holds secrets: created 0600 in a 0700 folder, written whole to a temporary
 * file, flushed, then renamed over the old one, and the folder flushed. A crash leaves either
 * the old file or the new one, never half of either, and never a moment where the secret is
 * readable by others (the mode is set when the file is created, not after).
 */
export async function writeSecretFile(path: string, text: string): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
  await chmod(dir, DIR_MODE);
  const tmp = join(dir, `.${randomBytes(6).toString('hex')}.tmp`);
  const fh = await open(tmp, 'wx', FILE_MODE);
  try {
    await fh.writeFile(text, 'utf8');
    await fh.chmod(FILE_MODE); // a umask cannot widen the mode, but an odd filesystem may ignore it
    await fh.sync();
  } catch (e) {
    await fh.close();
    await rm(tmp, { force: true });
    throw e;
  }
  await fh.close();
  try {
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  await syncDir(dir);
}

/** Deletes a secret file (no error when it is already gone), and flushes its folder. */
export async function removeSecretFile(path: string): Promise<boolean> {
  try {
    await rm(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
  await syncDir(dirname(path));
  return true;
}

async function syncDir(dir: string): Promise<void> {
  const d = await open(dir, 'r');
  try {
    await d.sync();
  } catch {
    // some filesystems refuse fsync on a directory; the rename itself is still atomic
  } finally {
    await d.close();
  }
}
