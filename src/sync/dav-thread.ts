import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DAVResponse } from 'tsdav';
import { OnDemandWorker } from '../platform/on-demand-worker.js';
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
 * daemon's thread would hold every other request. The thread stops when idle; one that dies fails
 * the calls it owed (src/platform/on-demand-worker.ts).
 */
export class DavThread {
  private readonly thread: OnDemandWorker<Omit<DavCall, 'id'>, DavReply>;

  constructor(outbound: OutboundOptions) {
    this.thread = new OnDemandWorker({
      name: 'the CalDAV thread',
      script: scriptUrl,
      options: () => ({ workerData: outbound, resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } }),
      idleMs: IDLE_MS,
    });
  }

  async call(op: DavOp, params: Record<string, unknown>): Promise<DAVResponse[]> {
    const m = await this.thread.call({ op, params });
    if ('responses' in m) return m.responses as DAVResponse[];
    throw m.error.code ? new OutboundError(m.error.code, m.error.message) : new Error(m.error.message);
  }
}
