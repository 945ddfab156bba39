import { close as closeFd, fstatSync, openSync, read, readSync } from 'node:fs';
import { mkdir, readdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DIR_MODE, FILE_MODE } from '../../config/paths.js';
import { writeFileDurableWith } from '../../platform/durable-write.js';
import type { SearchLog } from '../search-log.js';

/**
 * Where a file's bytes come from: the file itself, read a piece at a time (a start never holds
 * the whole file, which grows with the home), or a buffer (tests). A read returns the bytes
 * [at, at + len), fewer at the end of the file.
 */
export interface FileSource {
  readonly size: number;
  read(at: number, len: number): Promise<Buffer>;
  /** With `into` (long enough), the bytes are read into it and the answer is a view of it: they hold until its next use. */
  readSync(at: number, len: number, into?: Buffer): Buffer;
  close(): Promise<void>;
}

/** A source over bytes already in memory. */
export function bufferSource(buf: Buffer): FileSource {
  const view = (at: number, len: number) => buf.subarray(at, Math.min(buf.length, at + len));
  return { size: buf.length, read: async (at, len) => view(at, len), readSync: view, close: async () => {} };
}

/** What a save writes: `body` writes the file's pieces, calling `throwIfStopped` between them; `done` runs once the file is in place. */
export interface SaveJob {
  body: (write: (chunk: Uint8Array) => Promise<void>, throwIfStopped: () => void) => Promise<void>;
  done: () => void;
}

/**
 * A search index's file beside the store, only ever a cache of what the store holds: opened as a
 * source read a piece at a time, written off the request path a piece per turn, durably
 * (writeFileDurableWith: a reader sees the old file or the new one, never half, and a power loss
 * keeps one of them). Saves queue one after another; stop() ends one under way at its next piece.
 */
export class PersistedFile {
  private saving?: Promise<void>;
  /** Set by stop(): a write under way ends at its next piece, without a file. */
  private stopped = false;

  constructor(
    readonly file: string,
    /** What the file is, for the log ("search index", "keyword index"). */
    private readonly what: string,
    private readonly log?: SearchLog,
  ) {}

  /** The file as a source (close it once done), or undefined (none, or unreadable: logged). Temp files of a killed daemon are removed first. */
  async open(): Promise<FileSource | undefined> {
    await this.removeLeftovers();
    return this.openFile();
  }

  /** open() in this turn (a start reads the file from its first turn on); temp files of a killed daemon are removed in the background. */
  openSync(): FileSource | undefined {
    void this.removeLeftovers();
    return this.openFile();
  }

  private openFile(): FileSource | undefined {
    try {
      return fdSource(openSync(this.file, 'r'));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
        this.log?.(`cannot read the persisted ${this.what}; rebuilding it`, { file: this.file, error: (e as Error).message });
      return undefined;
    }
  }

  /** Log why the file is not used (it is rebuilt). */
  rejected(reason: string): void {
    this.log?.(`ignoring the persisted ${this.what}; rebuilding it`, { file: this.file, reason });
  }

  /**
   * Write the file after any save under way: `what` is asked when the write begins (so saves
   * queued meanwhile coalesce; undefined: nothing to write any more). Errors are logged, never
   * thrown: the file is only a cache.
   */
  save(what: () => SaveJob | undefined): Promise<void> {
    const run = async () => {
      const job = this.stopped ? undefined : what();
      if (!job) return;
      try {
        await mkdir(dirname(this.file), { recursive: true, mode: DIR_MODE });
        await writeFileDurableWith(
          this.file,
          (write) =>
            job.body(write, () => {
              if (this.stopped) throw new Error('stopped');
            }),
          { mode: FILE_MODE },
        );
        job.done();
      } catch (e) {
        if (this.stopped) return;
        this.log?.(`cannot persist the ${this.what} (it is rebuilt at the next start)`, { file: this.file, error: (e as Error).message });
      }
    };
    this.saving = (this.saving ?? Promise.resolve()).then(run);
    return this.saving;
  }

  /** Stop saving: a write under way ends at its next piece (its temp file removed), later ones do nothing. */
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

/** A source over an open file: pieces read where asked (synchronously too: a fill takes a piece in its turn). */
function fdSource(fd: number): FileSource {
  let size: number;
  try {
    size = fstatSync(fd).size;
  } catch (e) {
    closeFd(fd, () => {});
    throw e;
  }
  /** Where [at, at + len) is read: `into` when it is long enough, else a new buffer. */
  const piece = (at: number, len: number, into?: Buffer) => {
    const n = Math.max(0, Math.min(len, size - at));
    return into && into.length >= n ? into.subarray(0, n) : Buffer.allocUnsafe(n);
  };
  return {
    size,
    read: (at, len) =>
      new Promise((ok, fail) => {
        const buf = piece(at, len);
        read(fd, buf, 0, buf.length, at, (e, n) => (e ? fail(e) : ok(buf.subarray(0, n))));
      }),
    readSync: (at, len, into) => {
      const buf = piece(at, len, into);
      return buf.subarray(0, readSync(fd, buf, 0, buf.length, at));
    },
    close: () => new Promise((ok) => closeFd(fd, () => ok())),
  };
}
