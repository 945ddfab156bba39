import { open, rename, readFile, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Adapter } from 'lowdb';
import { FILE_MODE } from '../config/paths.js';

/** Write a whole file atomically and durably: temp file, fsync, rename, fsync the folder. */
export async function writeFileDurable(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  const fh = await open(tmp, 'w', FILE_MODE);
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => {});
    throw e;
  }
  await fsyncDir(dirname(path));
}

export async function fsyncDir(dir: string): Promise<void> {
  const d = await open(dir, 'r');
  try {
    await d.sync();
  } finally {
    await d.close();
  }
}

/** A db.json that cannot be used as it is; the store never writes over such a file. */
export class CorruptFileError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path} cannot be read: ${reason}`);
  }
}

/**
 * lowdb adapter for db.json. lowdb's own JSONFile renames without fsync (a power loss can lose
 * the snapshot) and turns a file holding `null` into the defaults; this one is durable and hands
 * the raw text to the store, which refuses anything that is not a well-shaped db.
 */
export class DurableJSONFile implements Adapter<unknown> {
  constructor(readonly path: string) {}

  async read(): Promise<unknown> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new CorruptFileError(this.path, `it is not valid JSON (${(e as Error).message})`);
    }
    if (parsed === null) throw new CorruptFileError(this.path, 'it holds null');
    return parsed;
  }

  async write(data: unknown): Promise<void> {
    await writeFileDurable(this.path, JSON.stringify(data, null, 1) + '\n');
  }
}
