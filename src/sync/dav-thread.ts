import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DAVResponse } from 'tsdav';
import type { OutboundOptions } from './outbound/outbound-client.js';
import { OutboundError } from './outbound/outbound-error.js';

/** The tsdav functions whose answer is a multistatus to parse. */
export type DavOp = 'propfind' | 'syncCollection' | 'calendarMultiGet';

export interface DavCall {
  id: number;
  op: DavOp;
  /** The function's parameters, less `fetch` (the thread has its own outbound client). */
  params: Record<string, unknown>;
}

export type DavReply = { id: number; responses: unknown } | { id: number; error: { code?: OutboundError['code']; message: string } };

/** A thread idle this long is stopped; the next report starts another. */
const IDLE_MS = 30_000;
/**
 * The thread's heap: a capped answer and its parsed tree fit with room to spare; a parse that
 * needs more ends the thread, not the daemon.
 */
const HEAP_MB = 512;

function scriptUrl(): URL {
  const here = new URL('./dav-thread-main.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  // Run from src/ (unit tests): the built copy in dist/ (the test set-up builds it first).
  return pathToFileURL(fileURLToPath(here).replace(/([/\\])src([/\\])sync([/\\])/, '$1dist$2sync$3'));
}

/**
 * Runs tsdav's PROPFIND and REPORT calls on one worker thread, started at the first call: a
 * multistatus of several MiB takes tsdav's XML parser hundreds of milliseconds, which on the
 * daemon's thread would hold every other request. The thread keeps the process alive only while
 * it owes an answer and stops when idle; one that dies fails the calls it owed.
 */
export class DavThread {
  private worker?: Worker;
  private nextId = 0;
  private idleTimer?: NodeJS.Timeout;
  private readonly waiting = new Map<number, { resolve: (r: DAVResponse[]) => void; reject: (e: Error) => void }>();

  constructor(private readonly outbound: OutboundOptions) {}

  call(op: DavOp, params: Record<string, unknown>): Promise<DAVResponse[]> {
    return new Promise((resolve, reject) => {
      const id = ++this.nextId;
      this.waiting.set(id, { resolve, reject });
      const w = this.thread();
      clearTimeout(this.idleTimer);
      w.ref();
      w.postMessage({ id, op, params } satisfies DavCall);
    });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(scriptUrl(), { workerData: this.outbound, resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } });
    w.on('message', (m: DavReply) => this.answer(m));
    w.on('error', (e) => this.died(w, e));
    w.on('exit', (code) => this.died(w, new Error(`the CalDAV thread exited with code ${code}`)));
    w.unref();
    this.worker = w;
    return w;
  }

  private answer(m: DavReply): void {
    const job = this.waiting.get(m.id);
    if (!job) return;
    this.waiting.delete(m.id);
    if (!this.waiting.size) {
      this.worker?.unref();
      this.idleTimer = setTimeout(() => this.stopIdle(), IDLE_MS).unref();
    }
    if ('responses' in m) job.resolve(m.responses as DAVResponse[]);
    else job.reject(m.error.code ? new OutboundError(m.error.code, m.error.message) : new Error(m.error.message));
  }

  private stopIdle(): void {
    const w = this.worker;
    if (!w || this.waiting.size) return;
    this.worker = undefined;
    void w.terminate();
  }

  private died(w: Worker, e: Error): void {
    if (this.worker !== w) return;
    this.worker = undefined;
    const jobs = [...this.waiting.values()];
    this.waiting.clear();
    for (const j of jobs) j.reject(e);
  }
}
