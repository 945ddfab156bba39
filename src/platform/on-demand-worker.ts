import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Each message to the thread and each answer from it carries the id of its call. */
export interface Answer {
  id: number;
}

export interface OnDemandWorkerOptions {
  /** The thread's script, and its options (workerData, resource limits). */
  script: () => URL;
  options: () => WorkerOptions;
  /** A thread with nothing owed for this long is stopped; the next call starts another. */
  idleMs: number;
  /** Names the thread in the error of a death ("the CalDAV thread"). */
  name: string;
  /**
   * How many deaths in a row (none answered in between) start another thread and send it every
   * unanswered call again, in order. Past that, the calls it owed fail; with `giveUp`, every later
   * call fails too (`failed`).
   */
  resend?: number;
  giveUp?: boolean;
  /** Told of each death: whether the calls are sent again. */
  onDeath?: (e: Error, resent: boolean) => void;
}

/**
 * A worker thread started at the first call, stopped once idle, that fails what it owed when it
 * dies. It keeps the process alive only while it owes an answer: a process awaiting one must not
 * exit, and an idle thread must not hold an exiting one.
 */
export class OnDemandWorker<Call extends object, Reply extends Answer> {
  private worker?: Worker;
  private nextId = 0;
  private idleTimer?: NodeJS.Timeout;
  private readonly waiting = new Map<number, { call: Call; resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  private deaths = 0;
  private closed = false;
  /** Set once the thread was given up: every later call is refused at once. */
  failed?: Error;

  constructor(private readonly o: OnDemandWorkerOptions) {}

  /** A thread is up (started and not stopped for idleness). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Calls sent and not answered yet. */
  get pending(): number {
    return this.waiting.size;
  }

  /** Post `call` with an id of its own; resolves with the thread's answer to it. */
  call(call: Call): Promise<Reply> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.closed) return Promise.reject(new Error(`${this.o.name} is closed`));
    return new Promise((resolve, reject) => {
      const id = ++this.nextId;
      this.waiting.set(id, { call, resolve, reject });
      this.post(id, call);
    });
  }

  private post(id: number, call: Call): void {
    const w = this.thread();
    clearTimeout(this.idleTimer);
    w.ref();
    w.postMessage({ ...call, id });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.o.script(), this.o.options());
    w.on('message', (m: Reply) => this.answer(m));
    w.on('error', (e) => this.died(w, e));
    w.on('exit', (code) => this.died(w, new Error(`${this.o.name} exited with code ${code}`)));
    // After the listeners: adding a 'message' listener refs the thread again.
    w.unref();
    this.worker = w;
    return w;
  }

  private answer(m: Reply): void {
    const job = this.waiting.get(m.id);
    if (!job) return;
    this.waiting.delete(m.id);
    this.deaths = 0;
    if (!this.waiting.size) {
      this.worker?.unref();
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => this.stopIdle(), this.o.idleMs).unref();
    }
    job.resolve(m);
  }

  private stopIdle(): void {
    const w = this.worker;
    if (!w || this.waiting.size) return;
    // Not a death: the exit handler sees another (or no) thread and ignores it.
    this.worker = undefined;
    void w.terminate();
  }

  /** A thread that died (or failed to start): send what it owed to another, or fail it. */
  private died(w: Worker, e: Error): void {
    if (this.worker !== w) return;
    this.worker = undefined;
    if (this.closed || !this.waiting.size) return;
    const resend = ++this.deaths <= (this.o.resend ?? 0);
    this.o.onDeath?.(e, resend);
    if (resend) {
      for (const [id, j] of this.waiting) this.post(id, j.call);
      return;
    }
    this.deaths = 0;
    if (this.o.giveUp) this.failed = e;
    this.failAll(e);
  }

  private failAll(e: Error): void {
    const jobs = [...this.waiting.values()];
    this.waiting.clear();
    for (const j of jobs) j.reject(e);
  }

  /** Stop the thread; unanswered calls are refused. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    const w = this.worker;
    this.worker = undefined;
    this.failAll(new Error(`${this.o.name} is closed`));
    await w?.terminate();
  }

  /** Kill the thread as a crash would (tests of the recovery). */
  async crash(): Promise<void> {
    await this.worker?.terminate();
  }
}
