import { constants as bufferConstants } from 'node:buffer';
import { constants } from 'node:fs';
import { type FileHandle, open, readdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { FILE_MODE } from '../config/paths.js';
import { fsyncDir } from '../platform/durable-write.js';
import { writeFully } from './durable-file.js';
import { forEachLine, LineTooLongError } from './lines.js';

export type JournalOp = { op: 'put'; c: string; doc: Record<string, unknown> } | { op: 'del'; c: string; id: string } | { op: 'meta'; k: string; v: unknown };

export interface JournalEntry {
  seq: number;
  ops: JournalOp[];
}

/** What readAll found in one segment besides its entries. */
export interface SegmentFinding {
  path: string;
  /** A torn last record (a crash or a refused write mid-append): never acknowledged, dropped. */
  tornTail?: { line: number; bytes: number };
  /** Bad records followed by good ones: real damage; the store refuses to open. */
  damagedLines?: number[];
}

/** Where a record lies: its segment, the byte it starts at and its text (without the newline). */
export interface RecordPlace {
  path: string;
  offset: number;
  line: string;
}

/** Called by the writer, in journal order, for each entry once its batch is durable or refused. */
export interface AppendCallbacks {
  /** The entry is on disk, at `where`. Runs before the append promise resolves and before any later entry. */
  durable(where: RecordPlace): void;
  /** The entry was not written (its batch failed, or an earlier one did): undo what it staged. */
  refused(): void;
}

interface Segment {
  n: number;
  fh: FileHandle;
  /** Bytes of whole, fdatasync'd records: everything after this offset was never acknowledged. */
  size: number;
  /** Bytes past `size` may be on disk (a failed write): cut them off before the next write. */
  dirty: boolean;
}

interface Pending {
  line: string;
  cb: AppendCallbacks;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/** A record is one JSON.stringify: never longer than a string may be. */
const MAX_RECORD_BYTES = bufferConstants.MAX_STRING_LENGTH;

const isEntry = (v: unknown): v is JournalEntry =>
  typeof v === 'object' && v !== null && typeof (v as JournalEntry).seq === 'number' && Array.isArray((v as JournalEntry).ops);

/**
 * The append-only journal: one NDJSON line per transaction, written by a single writer with group
 * commit (every line waiting when the writer is free goes out in one write + one fdatasync).
 * Segments (`db.journal.N`) let a snapshot retire what it has folded in without stopping writes.
 *
 * A batch counts only when all its bytes are written (short writes are continued) and synced.
 * When a write or sync fails, the batch and everything queued behind it (which may have been
 * staged on top of it) are refused, and the segment is cut back to its last whole record before
 * anything else is written, so a refused write leaves nothing on disk and later writes can go on
 * as soon as the disk takes them again.
 */
export class Journal {
  private seg?: Segment;
  private pending: Pending[] = [];
  private writing?: Promise<void>;
  /** Bytes of records made durable since this journal was opened (the store's snapshot policy reads it). */
  bytesWritten = 0;
  /** Batches made durable (one write + one fdatasync each) since this journal was opened: group commit's measure. */
  batches = 0;

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
   * Read every entry of every segment. A bad last record of a segment — of any segment, since a
   * start or a snapshot opens a new one after a crash or a refused write — was never acknowledged
   * and is dropped (and reported); a bad record followed by good ones is damage.
   */
  async readAll(): Promise<{ entries: JournalEntry[]; findings: SegmentFinding[] }> {
    const entries: JournalEntry[] = [];
    const findings = await this.replay((e) => entries.push(e));
    return { entries, findings };
  }

  /**
   * readAll as a stream: `onEntry` gets each good entry in order, read a line at a time, so a
   * segment of any size is read in the memory of its records. A caller learns of damage only
   * at the end (in the findings), once it has been handed every good entry.
   */
  async replay(onEntry: (entry: JournalEntry, where: RecordPlace) => void, onRead?: (bytes: number) => void): Promise<SegmentFinding[]> {
    const findings: SegmentFinding[] = [];
    for (const n of await this.segments()) {
      const path = this.segmentPath(n);
      const bad: { line: number; offset: number }[] = [];
      let lastGood = 0;
      let tooLong: number | undefined;
      await forEachLine(
        path,
        MAX_RECORD_BYTES,
        (line, no, offset) => {
          if (!line) return;
          let parsed: unknown;
          try {
            parsed = JSON.parse(line);
          } catch {
            parsed = undefined;
          }
          if (isEntry(parsed)) {
            onEntry(parsed, { path, offset, line });
            lastGood = no;
          } else bad.push({ line: no, offset });
        },
        onRead,
      ).catch((e: unknown) => {
        // Longer than any record the journal writes (one string): damage, and the reading stops there.
        if (!(e instanceof LineTooLongError)) throw e;
        tooLong = e.line;
      });
      const finding: SegmentFinding = { path };
      const last = bad.at(-1);
      if (tooLong === undefined && last !== undefined && last.line > lastGood) {
        finding.tornTail = { line: last.line, bytes: (await stat(path)).size - last.offset };
        bad.pop();
      }
      const damaged = [...bad.map((b) => b.line), ...(tooLong === undefined ? [] : [tooLong])];
      if (damaged.length) finding.damagedLines = damaged;
      if (finding.tornTail || finding.damagedLines) findings.push(finding);
    }
    return findings;
  }

  /**
   * Make sure new appends go to an empty segment after every existing one, and return its number:
   * every entry in an older segment is durable (and reported durable) when this resolves.
   */
  async rollOver(): Promise<number> {
    await this.drain();
    if (this.seg && this.seg.size === 0 && !this.seg.dirty) return this.seg.n;
    const segs = await this.segments();
    const next = (segs.at(-1) ?? 0) + 1;
    // Not O_APPEND: records are written at an explicit offset, so a cut-back tail is overwritten.
    const fh = await open(this.segmentPath(next), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, FILE_MODE);
    try {
      await fsyncDir(dirname(this.base));
    } catch (e) {
      await fh.close();
      await unlink(this.segmentPath(next)).catch(() => {});
      throw e;
    }
    const old = this.seg;
    this.seg = { n: next, fh, size: 0, dirty: false };
    await this.drain(); // a batch may still be going to the old segment
    if (old) await this.closeSegment(old);
    return next;
  }

  /**
   * Delete the segments that hold no byte. Each start opens a segment of its own, and a start that
   * writes nothing used to leave it behind: a home started daily for a year kept 365 empty files,
   * each one more file to list and open at every start. Called before this journal opens one.
   */
  async removeEmpty(): Promise<void> {
    let removed = false;
    for (const n of await this.segments()) {
      const path = this.segmentPath(n);
      if ((await stat(path)).size !== 0) continue;
      await unlink(path);
      removed = true;
    }
    if (removed) await fsyncDir(dirname(this.base));
  }

  /** Delete segments older than `keepFrom` (their entries are in a durable snapshot). */
  async retireBefore(keepFrom: number): Promise<void> {
    for (const n of await this.segments()) if (n < keepFrom) await unlink(this.segmentPath(n));
  }

  get currentSegment(): number {
    return this.seg?.n ?? 0;
  }

  /**
   * Resolves once the entry is on disk (fdatasync'd); `cb.durable` has run by then. Rejects with
   * the file system's error when it was refused; `cb.refused` has run by then.
   */
  append(entry: JournalEntry, cb: AppendCallbacks): Promise<void> {
    const line = JSON.stringify(entry) + '\n';
    return new Promise((resolve, reject) => {
      this.pending.push({ line, cb, resolve, reject });
      this.writing ??= this.writeLoop();
    });
  }

  private async writeLoop(): Promise<void> {
    try {
      while (this.pending.length) {
        const batch = this.pending;
        this.pending = [];
        const seg = this.seg;
        try {
          if (!seg) throw new Error('journal is not open');
          if (seg.dirty) await this.cutBack(seg);
          const buf = Buffer.from(batch.map((b) => b.line).join(''));
          // The tail is suspect from the first byte written until the sync says otherwise.
          seg.dirty = true;
          await writeFully(seg.fh, buf, seg.size);
          await seg.fh.datasync();
          seg.size += buf.length;
          seg.dirty = false;
          this.bytesWritten += buf.length;
          this.batches++;
        } catch (e) {
          // Cut the tail back before answering: the refused records must not be on disk when the
          // caller hears "refused". (If even that fails, the tail stays marked and is cut before
          // the next write.)
          if (seg?.dirty) await this.cutBack(seg).catch(() => {});
          // Entries queued meanwhile were staged on top of this batch: they go too, in order.
          const refused = [...batch, ...this.pending];
          this.pending = [];
          for (const b of refused) settle(() => b.cb.refused());
          for (const b of refused) b.reject(e);
          continue;
        }
        let at = seg!.size - batch.reduce((n, b) => n + Buffer.byteLength(b.line), 0);
        for (const b of batch) {
          const where: RecordPlace = { path: this.segmentPath(seg!.n), offset: at, line: b.line };
          at += Buffer.byteLength(b.line);
          settle(() => b.cb.durable(where));
        }
        for (const b of batch) b.resolve();
      }
    } finally {
      this.writing = undefined;
    }
  }

  /** Drop what a failed write left after the last whole record. */
  private async cutBack(seg: Segment): Promise<void> {
    await seg.fh.truncate(seg.size);
    await seg.fh.datasync();
    seg.dirty = false;
  }

  /** Wait until every appended entry is written or refused. */
  async drain(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async closeSegment(seg: Segment): Promise<void> {
    if (seg.dirty) await this.cutBack(seg).catch(() => {});
    await seg.fh.close();
  }

  async close(): Promise<void> {
    await this.drain();
    const seg = this.seg;
    this.seg = undefined;
    if (seg) await this.closeSegment(seg);
  }
}

/** Callbacks are the store's bookkeeping; one failing must not stop the writer. */
function settle(fn: () => void): void {
  try {
    fn();
  } catch {
    // The store's callbacks catch their own listeners' errors; nothing else is expected here.
  }
}
