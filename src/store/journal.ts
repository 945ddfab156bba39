import { open, readdir, readFile, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { FILE_MODE } from '../config/paths.js';
import { fsyncDir } from './durable-file.js';

export type JournalOp =
  | { op: 'put'; c: string; doc: Record<string, unknown> }
  | { op: 'del'; c: string; id: string }
  | { op: 'meta'; k: string; v: unknown };

export interface JournalEntry {
  seq: number;
  ops: JournalOp[];
}

/**
 * The append-only journal: one NDJSON line per transaction, written by a single writer with group
 * commit (every line waiting when the writer is free goes out in one write + one fdatasync).
 * Segments (`db.journal.N`) let a snapshot retire what it has folded in without stopping writes.
 */
export class Journal {
  private fh?: FileHandle;
  private segment = 0;
  private pending: { line: string; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private writing?: Promise<void>;
  private failed?: unknown;

  constructor(private readonly base: string) {}

  segmentPath(n: number): string {
    return `${this.base}.${n}`;
  }

  /** Existing segment numbers, oldest first. */
  async segments(): Promise<number[]> {
    const dir = dirname(this.base);
    const prefix = basename(this.base) + '.';
    const names = await readdir(dir);
    return names
      .filter((n) => n.startsWith(prefix) && /^\d+$/.test(n.slice(prefix.length)))
      .map((n) => Number(n.slice(prefix.length)))
      .sort((a, b) => a - b);
  }

  /**
   * Read every entry of every segment. A torn last line (a crash mid-append) was never
   * acknowledged and is dropped; a bad line anywhere else means the journal is damaged.
   */
  async readAll(): Promise<{ entries: JournalEntry[]; damaged?: string }> {
    const entries: JournalEntry[] = [];
    const segs = await this.segments();
    for (let i = 0; i < segs.length; i++) {
      const path = this.segmentPath(segs[i]!);
      const text = await readFile(path, 'utf8');
      const lines = text.split('\n');
      for (let j = 0; j < lines.length; j++) {
        const line = lines[j]!;
        if (!line) continue;
        try {
          entries.push(JSON.parse(line) as JournalEntry);
        } catch {
          const isTail = i === segs.length - 1 && lines.slice(j + 1).every((l) => !l);
          if (!isTail) return { entries, damaged: `${path} line ${j + 1} is not valid JSON` };
        }
      }
    }
    return { entries };
  }

  /** Open a fresh segment after the newest existing one; later appends go there. */
  async rollOver(): Promise<number> {
    await this.drain();
    const segs = await this.segments();
    const next = (segs.at(-1) ?? 0) + 1;
    const fh = await open(this.segmentPath(next), 'a', FILE_MODE);
    await fsyncDir(dirname(this.base));
    const old = this.fh;
    this.fh = fh;
    this.segment = next;
    await this.drain(); // a batch may still be going to the old segment
    await old?.close();
    return next;
  }

  /** Delete segments older than `keepFrom` (their entries are in a durable snapshot). */
  async retireBefore(keepFrom: number): Promise<void> {
    for (const n of await this.segments()) if (n < keepFrom) await unlink(this.segmentPath(n));
  }

  get currentSegment(): number {
    return this.segment;
  }

  /** Resolves once the entry is on disk (fdatasync'd). */
  append(entry: JournalEntry): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    const line = JSON.stringify(entry) + '\n';
    return new Promise((resolve, reject) => {
      this.pending.push({ line, resolve, reject });
      this.writing ??= this.writeLoop();
    });
  }

  private async writeLoop(): Promise<void> {
    try {
      while (this.pending.length) {
        const batch = this.pending;
        this.pending = [];
        try {
          const fh = this.fh;
          if (!fh) throw new Error('journal is not open');
          await fh.write(batch.map((b) => b.line).join(''));
          await fh.datasync();
          for (const b of batch) b.resolve();
        } catch (e) {
          // A journal that cannot be written must stop all writes: acknowledging later ones would lie.
          this.failed = e;
          for (const b of [...batch, ...this.pending]) b.reject(e);
          this.pending = [];
        }
      }
    } finally {
      this.writing = undefined;
    }
  }

  /** Wait until every appended entry is on disk. */
  async drain(): Promise<void> {
    while (this.writing) await this.writing;
  }

  async close(): Promise<void> {
    await this.drain();
    await this.fh?.close();
    this.fh = undefined;
  }
}
