import { chmod, mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DIR_MODE, FILE_MODE } from '../../config/paths.js';
import { fsyncDir, writeFileDurable } from '../../platform/durable-write.js';

/**
 * Writes a file that holds secrets: created 0600 in a 0700 folder, whole and durably
 * (src/platform/durable-write.ts), never readable by others even for a moment.
 */
export async function writeSecretFile(path: string, text: string): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
  await chmod(dir, DIR_MODE);
  await writeFileDurable(path, text, { mode: FILE_MODE });
}

/** Deletes a secret file (no error when it is already gone), and flushes its folder. */
export async function removeSecretFile(path: string): Promise<boolean> {
  try {
    await rm(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
  await fsyncDir(dirname(path));
  return true;
}
