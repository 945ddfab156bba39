import { type ChildProcess, fork } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { CALENDAR_LIMITS } from '../../contracts/calendar-limits.js';
import { AppError, validationFailed } from '../../errors.js';
import type { Problem } from '../../ical/scan.js';
import { nextTurn } from '../../platform/next-turn.js';
import { TurnSlice } from '../../platform/turn-slice.js';
import { type CheckedEvent, type PreparedImport, prepareSteps } from './import-check.js';

/**
 * Where an .ics file is read and checked (no request holds the event loop over 100 ms).
 * node-ical parses a file in one synchronous call, so a file of several MiB would hold the loop
 * for seconds. Files over `inlineMaxChars` are read in a child process, bounded in time and heap;
 * smaller ones on the loop, because starting the child (Node, node-ical and its Temporal
 * polyfill) costs far more than parsing a typical invitation of a few events.
 *
 * A process, not a worker thread: a worker shares the daemon's address space and V8's pool of GC
 * threads, and while it parsed a 10 MiB file its garbage collections (hundreds of MB mapped,
 * protected and freed) kept the daemon's thread waiting on the process's memory-map lock and on
 * GC helpers (seen as `D vm_mmap_pgoff` and futex waits in /proc), turns far over the bound on a
 * loaded machine. The child also runs at a lower priority (nice 10), so on a busy machine the
 * daemon's requests come before the parsing.
 */

/**
 * Files up to 32 KiB (a hundred-odd typical events, a few ms to parse on an idle machine) are read
 * on the loop, each event's check in its own slice; larger ones in a child process.
 */
export const INLINE_MAX_CHARS = 32 * 1024;
/** Items per message from the child: each message is decoded in a turn of its own (the child sends the next when asked). */
const SLICE_ITEMS = 250;
/** Characters of the text encoded and sent per turn on their way to the child. */
const ENCODE_CHARS = 512 * 1024;
/** The child's scheduling priority (as nice(1)): below the daemon's. */
const CHILD_NICE = 10;
/** How much of the child's stderr is kept, to tell a heap overflow from another failure. */
const STDERR_TAIL = 4096;

/** What the daemon sends the child: the text as UTF-8 in parts, then `read`, then `more` for each further slice. */
export type ReaderRequest = { kind: 'part'; bytes: Uint8Array } | { kind: 'read'; defaultTz: string; sliceItems: number } | { kind: 'more' };

/** What the child sends, in this order; `done` last. */
export type ReaderMessage =
  | { kind: 'checked'; items: CheckedEvent[] }
  | { kind: 'errors'; items: Problem[] }
  | { kind: 'warnings'; items: Problem[] }
  | { kind: 'done'; skipped: number };

export interface ReaderOptions {
  /** Texts up to this many characters are read on the event loop (default INLINE_MAX_CHARS). */
  inlineMaxChars?: number;
  /** Wall-clock time a child may take (default CALENDAR_LIMITS.import_parse_ms). */
  timeoutMs?: number;
  /** Old-generation heap of a child, MB (default CALENDAR_LIMITS.import_parse_memory_mb). */
  memoryMb?: number;
  /** Children at once; further imports wait for one to finish (default 2: this is a 2-core daemon's share). */
  maxChildren?: number;
  /** The compiled child main (tests running src/ point at dist/). */
  childUrl?: URL;
}

const limitDetail = (limit: 'import_parse_ms' | 'import_parse_memory_mb', message: string, max: number) => [{ path: 'body', message, limit, max }];

/** Reads files for imports; one per calendar service (it counts the children running). */
export class ImportReader {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly inlineMax: number;
  private readonly timeoutMs: number;
  private readonly memoryMb: number;
  private readonly maxChildren: number;
  private readonly childUrl: URL;

  constructor(opts: ReaderOptions = {}) {
    this.inlineMax = opts.inlineMaxChars ?? INLINE_MAX_CHARS;
    this.timeoutMs = opts.timeoutMs ?? CALENDAR_LIMITS.import_parse_ms;
    this.memoryMb = opts.memoryMb ?? CALENDAR_LIMITS.import_parse_memory_mb;
    this.maxChildren = opts.maxChildren ?? 2;
    this.childUrl = opts.childUrl ?? new URL('./import-child.js', import.meta.url);
  }

  /**
   * The file's events, each checked as a create would check it, with per-event errors and
   * warnings. Refuses (422 naming the limit) a file whose reading outgrows the time or heap
   * bound; a child that fails otherwise is a 500 `import_failed`. Nothing is stored either way.
   */
  async read(text: string, defaultTz: string): Promise<PreparedImport> {
    if (text.length <= this.inlineMax) return this.inline(text, defaultTz);
    await this.acquire();
    try {
      return await this.inChild(text, defaultTz);
    } finally {
      this.release();
    }
  }

  private async inline(text: string, defaultTz: string): Promise<PreparedImport> {
    const { parseIcs } = await import('../../ical/import.js');
    const steps = prepareSteps(text, defaultTz, parseIcs);
    const slice = new TurnSlice();
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
      await slice.maybeYield();
    }
  }

  private async inChild(text: string, defaultTz: string): Promise<PreparedImport> {
    await nextTurn();
    const child = fork(fileURLToPath(this.childUrl), [], {
      execArgv: [`--max-old-space-size=${this.memoryMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    try {
      if (child.pid !== undefined) setPriority(child.pid, CHILD_NICE);
    } catch {
      // Not allowed here (some containers): the child runs at the daemon's priority.
    }
    const done = this.collect(child);
    // It may end (a timeout, a crash) before the text is all sent: its refusal is the answer.
    done.catch(() => {});
    const send = (req: ReaderRequest) => {
      if (child.connected) child.send(req, () => {});
    };
    // The text goes over as UTF-8, a window encoded and sent per turn: 10 MiB in one message
    // was one turn of 20 MB copied.
    for (let at = 0; at < text.length; ) {
      await nextTurn();
      let end = Math.min(text.length, at + ENCODE_CHARS);
      // Never between the two halves of a surrogate pair (an emoji would become two U+FFFD).
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end++;
      send({ kind: 'part', bytes: Buffer.from(text.slice(at, end), 'utf8') });
      at = end;
    }
    send({ kind: 'read', defaultTz, sliceItems: SLICE_ITEMS });
    return done;
  }

  /** The child's answer, or the error that ended it; the child is stopped either way. */
  private collect(child: ChildProcess): Promise<PreparedImport> {
    return new Promise<PreparedImport>((resolve, reject) => {
      const out: PreparedImport = { checked: [], errors: [], warnings: [], skipped: 0 };
      let settled = false;
      let stderr = '';
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (d: string) => {
        stderr = (stderr + d).slice(-STDERR_TAIL);
      });
      const finish = (err?: AppError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.kill('SIGKILL');
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
      child.on('message', (m: ReaderMessage) => {
        if (m.kind === 'done') {
          out.skipped = m.skipped;
          finish();
          return;
        }
        if (m.kind === 'checked') for (const x of m.items) out.checked.push(x);
        else if (m.kind === 'errors') for (const x of m.items) out.errors.push(x);
        else for (const x of m.items) out.warnings.push(x);
        // The child sends the next slice when asked: one decoded per turn, never a queue of them.
        setImmediate(() => {
          if (!settled && child.connected) child.send({ kind: 'more' } satisfies ReaderRequest, () => {});
        });
      });
      child.on('error', (e: Error) => finish(failed(e)));
      // 'close' comes after the child's stderr is read to its end (a heap overflow is told there).
      child.on('close', (code, signal) => {
        if (/heap out of memory|Reached heap limit/.test(stderr))
          finish(
            validationFailed(
              `Reading this file needs more than the ${this.memoryMb} MB an import may use (limit import_parse_memory_mb); split it into smaller files.`,
              limitDetail('import_parse_memory_mb', `needs more than ${this.memoryMb} MB`, this.memoryMb),
            ),
          );
        else finish(failed(new Error(`the import reader exited (${signal ?? `code ${code}`}) before it finished`)));
      });
    });
  }

  private async acquire(): Promise<void> {
    if (this.running < this.maxChildren) {
      this.running++;
      return;
    }
    await new Promise<void>((ok) => this.waiting.push(ok));
  }

  /** Hand the child slot to the next waiting import, or free it. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;

const failed = (cause: unknown) =>
  new AppError(500, 'import_failed', 'The file could not be read: the import’s parser stopped unexpectedly. Nothing was imported.', { cause, expose: true });
