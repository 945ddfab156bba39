// The CalDAV reports' thread (started by dav-thread.ts): PROPFIND and REPORT sent through the
// outbound client and their multistatus parsed by tsdav here, off the event loop that answers
// requests. Only the parsed responses cross back.
import { parentPort, workerData } from 'node:worker_threads';
import type { DAVResponse } from 'tsdav';
import type { DavCall, DavReply } from './dav-thread.js';
import { createOutboundClient, type OutboundOptions } from './outbound/outbound-client.js';
import { OutboundError } from './outbound/outbound-error.js';

const client = createOutboundClient(workerData as OutboundOptions);
const fetch = (input: RequestInfo | URL, init?: RequestInit) => client.fetch(input instanceof Request ? input.url : input, init);

parentPort!.on('message', async ({ id, op, params }: DavCall) => {
  let reply: DavReply;
  try {
    const tsdav = await import('tsdav');
    const responses = await (tsdav[op] as (p: unknown) => Promise<DAVResponse[]>)({ ...params, fetch });
    reply = { id, responses: responses.map(slim) };
  } catch (e) {
    reply = { id, error: e instanceof OutboundError ? { code: e.code, message: e.message } : { message: (e as Error)?.message ?? String(e) } };
  }
  parentPort!.postMessage(reply);
});

/**
 * What the connector reads of a response. tsdav gives every response the whole parsed document
 * as `raw`; copying it back to the daemon's thread would cost about as much as the parse, so only
 * the sync token is kept of it.
 */
function slim(r: DAVResponse): DAVResponse {
  const syncToken = (r.raw as { multistatus?: { syncToken?: unknown } } | undefined)?.multistatus?.syncToken;
  return {
    href: r.href,
    status: r.status,
    statusText: '',
    ok: r.ok,
    props: r.props,
    raw: syncToken === undefined ? undefined : { multistatus: { syncToken } },
  };
}
