import { crc32 } from 'node:zlib';
import { nextTurn } from '../../platform/next-turn.js';
import type { SearchLog } from '../search-log.js';
import { PersistedFile } from './persisted-file.js';
import { decodeVectorFile, encodeHead, encodeRows, encodeTrailer, type VectorFileHeader, type VectorFileRows } from './vector-file.js';
import type { RawRow, VectorIndex } from './vector-index.js';

/** Rows encoded per turn of the event loop while saving (~1 ms each): requests are not held up. */
const SAVE_SLICE = 2000;

/**
 * Where a vector index is persisted, and how: checked whole at a start, a piece at a time, its
 * rows then read as they are asked for (any doubt → ignored, the index is rebuilt), written off
 * the request path a slice per turn (PersistedFile).
 */
export class PersistedVectors {
  private readonly persisted: PersistedFile;

  constructor(
    readonly file: string,
    log?: SearchLog,
  ) {
    this.persisted = new PersistedFile(file, 'search index', log);
  }

  /** The rows of the file by uid (close them once done), or undefined (no file, or one not to trust: logged). */
  async load(expect: VectorFileHeader): Promise<VectorFileRows | undefined> {
    const src = await this.persisted.open();
    if (!src) return undefined;
    const d = await decodeVectorFile(src, expect, nextTurn);
    if ('rejected' in d) {
      this.persisted.rejected(d.rejected);
      return undefined;
    }
    return d.rows;
  }

  /**
   * Write an index after any save under way: `what` is asked when the write begins (so saves
   * queued meanwhile coalesce; undefined: nothing to write any more) and `done` is called once
   * the file is in place. Errors are logged, never thrown: the file is only a cache.
   */
  save(what: () => { index: VectorIndex; header: VectorFileHeader; done: () => void } | undefined): Promise<void> {
    return this.persisted.save(() => {
      const w = what();
      return w && { body: (write, throwIfStopped) => writeVectors(w.index, w.header, write, throwIfStopped), done: w.done };
    });
  }

  /** Stop saving: a write under way ends at its next slice (its temp file removed), later ones do nothing. */
  stop(): Promise<void> {
    return this.persisted.stop();
  }

  /** Resolves once no save is under way. */
  idle(): Promise<void> {
    return this.persisted.idle();
  }
}

async function writeVectors(
  index: VectorIndex,
  header: VectorFileHeader,
  write: (chunk: Uint8Array) => Promise<void>,
  throwIfStopped: () => void,
): Promise<void> {
  const head = encodeHead(header);
  let crc = crc32(head);
  await write(head);
  const uids = index.uids();
  let rows = 0;
  for (let i = 0; i < uids.length; i += SAVE_SLICE) {
    throwIfStopped();
    // Rows are read and encoded in one turn (raw() gives views into the index).
    const slice: RawRow[] = [];
    for (let j = i; j < Math.min(uids.length, i + SAVE_SLICE); j++) {
      const r = index.raw(uids[j]!);
      if (r) slice.push(r);
    }
    const buf = encodeRows(slice, header.dims);
    crc = crc32(buf, crc);
    rows += slice.length;
    await write(buf);
  }
  // The checksum covers the row count too.
  await write(encodeTrailer(rows, crc32(encodeTrailer(rows, 0).subarray(0, 4), crc)));
}
