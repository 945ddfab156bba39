import { copyFile, type FileHandle, open, rename, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Adapter } from 'lowdb';
import { FILE_MODE } from '../config/paths.js';
import { fsyncDir } from '../platform/durable-write.js';
import { JsonFileError, type LineValueHook, readJsonByLines } from './json-by-lines.js';
import { jsonInSlices } from './json-in-slices.js';

/** Told of each document a snapshot writes, where (byte offset and length), and the temp file that becomes db.json. */
export type WrittenValueHook = (value: unknown, keys: (string | number)[], json: string, offset: number, bytes: number, tmp: string) => void;

/** Serialising work per turn of a snapshot, and the size of each part written (see write). */
const SNAPSHOT_SLICE_MS = 4;
const SNAPSHOT_PART_BYTES = 64 * 1024;

/**
 * Write all of `buf` at `position`: a write may take only part of it (a file-size limit, a disk
 * filling up), and the rest is written by the next call, which then reports why it cannot.
 */
export async function writeFully(fh: FileHandle, buf: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < buf.length) {
    const { bytesWritten } = await fh.write(buf, done, buf.length - done, position + done);
    if (bytesWritten <= 0) throw Object.assign(new Error('the file system took no bytes'), { code: 'EIO' });
    done += bytesWritten;
  }
}

/**
 * Make a file under its final name whole or not at all: `fill` writes and syncs a temp file, which
 * is renamed over `path` and the folder synced. If any step fails, the temp file is removed and the
 * old file is untouched.
 */
async function replaceDurably(path: string, fill: (tmp: string) => Promise<void>): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await fill(tmp);
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => {});
    throw e;
  }
  await fsyncDir(dirname(path));
}

async function syncFile(path: string, write?: (fh: FileHandle) => Promise<void>): Promise<void> {
  const fh = await open(path, write ? 'w' : 'r', FILE_MODE);
  try {
    await write?.(fh);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Copy a file durably under its final name, or not at all: a copy cut short by a full disk must
 * not pass for a good backup.
 */
export async function copyFileDurable(from: string, to: string): Promise<void> {
  await replaceDurably(to, async (tmp) => {
    await copyFile(from, tmp);
    await syncFile(tmp);
  });
}

/** Errors by which a file system says it has no room: the write is refused as `storage_full`. */
export function isNoSpace(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EFBIG' || code === 'EDQUOT';
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
 * what it parsed to the store, which refuses anything that is not a well-shaped db. The file is
 * read a line at a time (see readJsonByLines), so its size meets no string limit.
 */
export class DurableJSONFile implements Adapter<unknown> {
  constructor(readonly path: string) {}

  /** `hook` sees each value read from a line of its own (see readJsonByLines); `onRead` each chunk's bytes. */
  async read(hook?: LineValueHook, onRead?: (bytes: number) => void): Promise<unknown> {
    let size: number;
    try {
      size = (await stat(this.path)).size;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    let parsed: unknown;
    try {
      parsed = await readJsonByLines(this.path, hook, onRead);
    } catch (e) {
      if (e instanceof JsonFileError) throw new CorruptFileError(this.path, e.message);
      throw e;
    }
    if (parsed === null) throw new CorruptFileError(this.path, 'it holds null');
    this.bytes = size;
    return parsed;
  }

  /** Bytes of the last file written (the store sizes its journal against it). */
  bytes = 0;

  /**
   * `signal` stops a write under way: the temp file is removed, db.json stays as it was.
   * `beforeReplace` runs once the temp file is written and synced, before it is renamed over
   * db.json; if it throws, nothing is replaced.
   */
  async write(data: unknown, o: { signal?: AbortSignal; beforeReplace?: () => Promise<void> } = {}, onValue?: WrittenValueHook): Promise<void> {
    const { signal, beforeReplace } = o;
    // Serialized a slice per event-loop turn and written as it goes: a big store's snapshot must
    // neither stall requests nor hold the whole file in memory. One document per line.
    let at = 0;
    await replaceDurably(this.path, async (tmp) => {
      await syncFile(tmp, async (fh) => {
        let chain = Promise.resolve();
        await jsonInSlices(data, {
          compactValues: true,
          // Short slices: a turn's share of the serialising stays well under the 20 ms a snapshot
          // may hold the loop (docs/architecture.md, "Runtime rules"), even when the machine is
          // loaded and a GC lands in it.
          sliceMs: SNAPSHOT_SLICE_MS,
          partBytes: SNAPSHOT_PART_BYTES,
          signal,
          onValue: onValue && ((v, keys, json, offset, bytes) => onValue(v, keys, json, offset, bytes, tmp)),
          sink: (part) => {
            const from = at;
            at += part.length;
            return (chain = chain.then(() => writeFully(fh, part, from)));
          },
        });
      });
      await beforeReplace?.();
    });
    this.bytes = at;
  }
}
