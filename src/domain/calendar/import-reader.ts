import { Worker } from 'node:worker_threads';
import { CALENDAR_LIMITS } from '../../contracts/calendar-limits.js';
import { AppError, validationFailed } from '../../errors.js';
import type { Problem } from '../../ical/scan.js';
import { type CheckedEvent, type PreparedImport, prepareSteps } from './import-check.js';
import { nextTurn, TurnSlice } from './turns.js';

/**
 * Where an .ics file is read and checked (issue 14: no request holds the event loop over 100 ms).
 * node-ical parses a file in one synchronous call — about 45 µs per event on an idle machine, ten
 * times that on a busy one, so a 10 MiB file held the loop for seconds. Files over
 * `inlineMaxBytes` are read in a worker thread, bounded in time and heap; smaller ones on the
 * loop, because starting a worker (loading node-ical and its Temporal polyfill: 100–600 ms, tens
 * of MB) costs far more than parsing a typical invitation of a few events.
 */

/**
 * Files up to 32 KiB (a hundred-odd typical events, a few ms to parse on an idle machine) are read
 * on the loop, each event's check in its own slice; larger ones in a worker.
 */
export const INLINE_MAX_CHARS = 32 * 1024;
/** Items per message from the worker: each message is decoded in a turn of its own (the worker sends the next when asked). */
const SLICE_ITEMS = 250;
/** Characters of the text encoded per turn on their way to the worker. */
const ENCODE_CHARS = 512 * 1024;

/** What the worker is given (workerData); the text follows as its first message, UTF-8 in parts. */
export interface ReaderInput {
  defaultTz: string;
  sliceItems: number;
}

/** What the worker posts, in this order; `done` last. */
export type ReaderMessage =
  | { kind: 'checked'; items: CheckedEvent[] }
  | { kind: 'errors'; items: Problem[] }
  | { kind: 'warnings'; items: Problem[] }
  | { kind: 'done'; skipped: number };

export interface ReaderOptions {
  /** Texts up to this many characters are read on the event loop (default INLINE_MAX_CHARS). */
  inlineMaxChars?: number;
  /** Wall-clock time a worker may take (default CALENDAR_LIMITS.import_parse_ms). */
  timeoutMs?: number;
  /** Old-generation heap of a worker, MB (default CALENDAR_LIMITS.import_parse_memory_mb). */
  memoryMb?: number;
  /** Workers at once; further imports wait for one to finish (default 2: this is a 2-core daemon's share). */
  maxWorkers?: number;
  /** The compiled worker (tests running src/ point at dist/). */
  workerUrl?: URL;
}

const limitDetail = (limit: 'import_parse_ms' | 'import_parse_memory_mb', message: string, max: number) => [{ path: 'body', message, limit, max }];

/** Reads files for imports; one per calendar service (it counts the workers running). */
export class ImportReader {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly inlineMax: number;
  private readonly timeoutMs: number;
  private readonly memoryMb: number;
  private readonly maxWorkers: number;
  private readonly workerUrl: URL;

  constructor(opts: ReaderOptions = {}) {
    this.inlineMax = opts.inlineMaxChars ?? INLINE_MAX_CHARS;
    this.timeoutMs = opts.timeoutMs ?? CALENDAR_LIMITS.import_parse_ms;
    this.memoryMb = opts.memoryMb ?? CALENDAR_LIMITS.import_parse_memory_mb;
    this.maxWorkers = opts.maxWorkers ?? 2;
    this.workerUrl = opts.workerUrl ?? new URL('./import-worker.js', import.meta.url);
  }

  /**
   * The file's events, each checked as a create would check it, with per-event errors and
   * warnings. Refuses (422 naming the limit) a file whose reading outgrows the time or heap
   * bound; a worker that fails otherwise is a 500 `import_failed`. Nothing is stored either way.
   */
  async read(text: string, defaultTz: string): Promise<PreparedImport> {
    if (text.length <= this.inlineMax) return this.inline(text, defaultTz);
    await this.acquire();
    try {
      return await this.inWorker(text, defaultTz);
    } finally {
      this.release();
    }
  }

  private async inline(text: string, defaultTz: string): Promise<PreparedImport> {
    const steps = prepareSteps(text, defaultTz);
    const slice = new TurnSlice();
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
      await slice.maybeYield();
    }
  }

  private async inWorker(text: string, defaultTz: string): Promise<PreparedImport> {
    // Starting the thread and copying the text to it (10 MiB) are turns of their own.
    await nextTurn();
    const input: ReaderInput = { defaultTz, sliceItems: SLICE_ITEMS };
    const worker = new Worker(this.workerUrl, { workerData: input, resourceLimits: { maxOldGenerationSizeMb: this.memoryMb } });
    const done = this.collect(worker);
    // It may end (a timeout) before the text is all sent: its refusal is the answer, not unhandled.
    done.catch(() => {});
    // The text goes over as UTF-8 bytes, encoded a window per turn and handed over without a
    // copy: posting the string itself copied 20 MB (two bytes a character) in one turn.
    const parts: ArrayBuffer[] = [];
    for (let at = 0; at < text.length; ) {
      await nextTurn();
      let end = Math.min(text.length, at + ENCODE_CHARS);
      // Never between the two halves of a surrogate pair (an emoji would become two U+FFFD).
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end++;
      const b = Buffer.from(text.slice(at, end), 'utf8');
      parts.push(b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer);
      at = end;
    }
    worker.postMessage(parts, parts);
    return done;
  }

  /** The worker's answer, or the error that ended it; the worker is stopped either way. */
  private collect(worker: Worker): Promise<PreparedImport> {
    return new Promise<PreparedImport>((resolve, reject) => {
      const out: PreparedImport = { checked: [], errors: [], warnings: [], skipped: 0 };
      let settled = false;
      const finish = (err?: AppError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        void worker.terminate();
        if (err) reject(err);
        else resolve(out);
      };
      const timer = setTimeout(() => {
        const s = this.timeoutMs / 1000;
        finish(
          validationFailed(
            `Reading this file took longer than the ${s} s an import may spend on it (limit import_parse_ms); split it into smaller files.`,
            limitDetail('import_parse_ms', `read for more than ${s} s`, this.timeoutMs),
          ),
        );
      }, this.timeoutMs);
      worker.on('message', (m: ReaderMessage) => {
        if (m.kind === 'done') {
          out.skipped = m.skipped;
          finish();
          return;
        }
        if (m.kind === 'checked') for (const x of m.items) out.checked.push(x);
        else if (m.kind === 'errors') for (const x of m.items) out.errors.push(x);
        else for (const x of m.items) out.warnings.push(x);
        // The worker sends the next slice when asked: one decoded per turn, never a queue of them.
        setImmediate(() => {
          if (!settled) worker.postMessage('more');
        });
      });
      worker.on('error', (e: Error) => {
        if ((e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY')
          finish(
            validationFailed(
              `Reading this file needs more than the ${this.memoryMb} MB an import may use (limit import_parse_memory_mb); split it into smaller files.`,
              limitDetail('import_parse_memory_mb', `needs more than ${this.memoryMb} MB`, this.memoryMb),
            ),
          );
        else finish(failed(e));
      });
      // Messages posted just before the worker ended are still on their way: let them land first.
      worker.on('exit', (code) => setImmediate(() => finish(failed(new Error(`the import worker exited (code ${code}) before it finished`)))));
    });
  }

  private async acquire(): Promise<void> {
    if (this.running < this.maxWorkers) {
      this.running++;
      return;
    }
    await new Promise<void>((ok) => this.waiting.push(ok));
  }

  /** Hand the worker slot to the next waiting import, or free it. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;

const failed = (cause: unknown) =>
  new AppError(500, 'import_failed', 'The file could not be read: the import’s parser stopped unexpectedly. Nothing was imported.', { cause, expose: true });
