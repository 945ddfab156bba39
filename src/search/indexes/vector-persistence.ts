import { readSync } from 'node:fs';
import { type FileHandle, mkdir, open, readdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { DIR_MODE, FILE_MODE } from '../../config/paths.js';
import { writeFileDurableWith } from '../../platform/durable-write.js';
import { nextTurn } from '../../platform/next-turn.js';
import type { SearchLog } from '../search-log.js';
import { decodeVectorFile, encodeHead, encodeRows, encodeTrailer, type VectorFileHeader, type VectorFileRows, type VectorSource } from './vector-file.js';
import type { RawRow, VectorIndex } from './vector-index.js';

type Log = SearchLog;

/** Rows encoded per turn of the event loop while saving (~1 ms each): requests are not held up. */
const SAVE_SLICE = 2000;

/**
 * Where a vector index is persisted, and how: checked whole at a start, a piece at a time, its
 * rows then read as they are asked for (any doubt → ignored, the index is rebuilt), written off
 * the request path a slice per turn, durably (writeFileDurableWith:
 * a reader sees the old file or the new one, never half, and a power loss keeps one of them).
 */
export class PersistedVectors {
  private saving?: Promise<void>;
  /** Set by stop(): a write under way ends at its next slice, without a file. */
  private stopped = false;

  constructor(
    readonly file: string,
    private readonly log?: Log,
  ) {}

  /** The rows of the file by uid (close them once done), or undefined (no file, or one not to trust: logged). */
  async load(expect: VectorFileHeader): Promise<VectorFileRows | undefined> {
    await this.removeLeftovers();
    let src: VectorSource;
    try {
      src = await fileSource(await open(this.file, 'r'));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
        this.log?.('cannot read the persisted search index; rebuilding it', { file: this.file, error: (e as Error).message });
      return undefined;
    }
    const d = await decodeVectorFile(src, expect, nextTurn);
    if ('rejected' in d) {
      this.log?.('ignoring the persisted search index; rebuilding it', { file: this.file, reason: d.rejected });
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
    const run = async () => {
      const w = this.stopped ? undefined : what();
      if (!w) return;
      try {
        await this.write(w.index, w.header);
        w.done();
      } catch (e) {
        if (this.stopped) return;
        this.log?.('cannot persist the search index (it is rebuilt at the next start)', { file: this.file, error: (e as Error).message });
      }
    };
    this.saving = (this.saving ?? Promise.resolve()).then(run);
    return this.saving;
  }

  /** Stop saving: a write under way ends at its next slice (its temp file removed), later ones do nothing. */
  stop(): Promise<void> {
    this.stopped = true;
    return this.idle();
  }

  /** Resolves once no save is under way. */
  async idle(): Promise<void> {
    while (this.saving) {
      const s = this.saving;
      await s;
      if (this.saving === s) this.saving = undefined;
    }
  }

  private async write(index: VectorIndex, header: VectorFileHeader): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true, mode: DIR_MODE });
    await writeFileDurableWith(
      this.file,
      async (write) => {
        const head = encodeHead(header);
        let crc = crc32(head);
        await write(head);
        const uids = index.uids();
        let rows = 0;
        for (let i = 0; i < uids.length; i += SAVE_SLICE) {
          if (this.stopped) throw new Error('stopped');
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
      },
      { mode: FILE_MODE },
    );
  }

  /** Temp files of a daemon killed while saving (one daemon per home: only this process may be writing one). */
  private async removeLeftovers(): Promise<void> {
    const name = basename(this.file);
    let files: string[];
    try {
      files = await readdir(dirname(this.file));
    } catch {
      return;
    }
    const mine = `${name}.${process.pid}.`;
    for (const f of files) if (f.startsWith(`${name}.`) && f.endsWith('.tmp') && !f.startsWith(mine)) await unlink(join(dirname(this.file), f)).catch(() => {});
  }
}

/** A source over an open file: pieces read where asked (a row's read is synchronous: the fill takes a row per trace in its turn). */
async function fileSource(fh: FileHandle): Promise<VectorSource> {
  try {
    const { size } = await fh.stat();
    const piece = (len: number) => Buffer.allocUnsafe(Math.max(0, Math.min(len, size)));
    return {
      size,
      read: async (at, len) => {
        const buf = piece(Math.min(len, size - at));
        const { bytesRead } = await fh.read(buf, 0, buf.length, at);
        return buf.subarray(0, bytesRead);
      },
      readSync: (at, len) => {
        const buf = piece(Math.min(len, size - at));
        return buf.subarray(0, readSync(fh.fd, buf, 0, buf.length, at));
      },
      close: () => fh.close(),
    };
  } catch (e) {
    await fh.close();
    throw e;
  }
}
