import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { VERSION } from '../../version.js';
import { createAddressPolicy, guardedLookup, normalizeHost } from './address-policy.js';
import { readCapped } from './capped-body.js';
import { OutboundError, unreachable } from './outbound-error.js';

export interface OutboundOptions {
  /** Hosts, addresses or CIDR ranges the address policy lets through (config `outbound.allow_hosts`, KAIROS_OUTBOUND_ALLOW). */
  allowHosts?: readonly string[];
  /** Largest body accepted, on the wire and inflated (default 10 MiB). */
  maxBytes?: number;
  /** One deadline for the whole exchange: every hop, connect to the last byte (default 30 s). */
  timeoutMs?: number;
  /** Redirects followed (default 5). */
  maxRedirects?: number;
}

/**
 * `fetch`'s init, plus how much of an answer that is not 2xx is read (default 64 KiB; more is cut
 * and the body left empty; 0 reads none). A caller that only needs the status passes 0.
 */
export type OutboundInit = RequestInit & { errorBodyBytes?: number };

export interface OutboundClient {
  /**
   * `fetch` for everything kairos asks of other servers (feeds, CalDAV through tsdav, OAuth through
   * oauth4webapi). The Response holds the whole body, already inflated; its `statusText` is always
   * empty. Throws OutboundError, or the reason of `init.signal` when that aborts first.
   */
  fetch(input: string | URL, init?: OutboundInit): Promise<Response>;
}

export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const DEFAULT_ERROR_BODY_BYTES = 64 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers that carry credentials: never sent to another origin after a redirect. */
const CREDENTIALS = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * The outbound HTTP client, over node:http(s) rather than the global fetch: the address policy
 * runs in the socket's own DNS lookup and again on each redirect, the body is capped while it
 * arrives (before and after inflation), one deadline covers the body, and every early exit
 * destroys the socket.
 */
export function createOutboundClient(opts: OutboundOptions = {}): OutboundClient {
  const policy = createAddressPolicy(opts.allowHosts);
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const maxRedirects = opts.maxRedirects ?? 5;
  const lookup = guardedLookup(policy);

  return {
    async fetch(input, init = {}) {
      let url = new URL(String(input));
      let method = (init.method ?? 'GET').toUpperCase();
      const headers = new Headers(init.headers);
      if (!headers.has('user-agent')) headers.set('user-agent', `kairos/${VERSION}`);
      if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'gzip, deflate, br');
      let body = await bodyBytes(init.body, headers);
      const errorBodyBytes = init.errorBodyBytes ?? DEFAULT_ERROR_BODY_BYTES;
      const call = new Call(init.signal ?? undefined, timeoutMs);
      try {
        for (let hop = 0; ; hop++) {
          const res = await call.guard(url, exchange(call, url, method, headers, body));
          const status = res.statusCode ?? 0;
          const location = res.headers.location;
          if (init.redirect !== 'manual' && REDIRECTS.has(status) && location) {
            res.destroy();
            if (init.redirect === 'error' || hop >= maxRedirects)
              throw new OutboundError('redirects', `${url.host} redirected more than ${init.redirect === 'error' ? 0 : maxRedirects} times`);
            const next = parseUrl(location, url);
            if (!next || (next.protocol !== 'http:' && next.protocol !== 'https:'))
              throw new OutboundError(
                'redirects',
                `${url.host} redirected to ${next ? `a ${next.protocol.replace(':', '')}` : 'an invalid'} address; only http and https are followed`,
              );
            if (next.origin !== url.origin) for (const h of CREDENTIALS) headers.delete(h);
            if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
              method = method === 'HEAD' ? 'HEAD' : 'GET';
              body = undefined;
              headers.delete('content-type');
            }
            url = next;
            continue;
          }
          return await call.guard(url, respond(call, res, url, hop > 0, status >= 200 && status < 300 ? maxBytes : errorBodyBytes, method));
        }
      } finally {
        call.end();
      }
    },
  };

  /** One request and its response head; a refused address or a failed connection rejects with `unreachable`. */
  function exchange(call: Call, url: URL, method: string, headers: Headers, body: Buffer | undefined): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const host = normalizeHost(url.hostname);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return reject(new OutboundError('redirects', `${url.host} is not an http or https address`));
      // Node skips `lookup` for an address literal: it is checked here instead.
      if (isIP(host) && !policy.allows(host, host)) return reject(unreachable(url.host));
      const h: Record<string, string> = {};
      headers.forEach((v, k) => {
        h[k] = v;
      });
      if (body) h['content-length'] = String(body.length);
      let req: ClientRequest;
      try {
        req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method, headers: h, lookup, agent: false });
      } catch {
        return reject(unreachable(url.host));
      }
      call.active = req;
      req.on('response', (res) => {
        call.active = res;
        resolve(res);
      });
      req.on('error', () => reject(unreachable(url.host)));
      req.end(body);
    });
  }

  async function respond(call: Call, res: IncomingMessage, url: URL, redirected: boolean, limit: number, method: string): Promise<Response> {
    const status = res.statusCode ?? 0;
    if (status < 200 || status > 599) {
      res.destroy();
      throw unreachable(url.host);
    }
    const noBody = method === 'HEAD' || status === 204 || status === 205 || status === 304;
    let body: Buffer | null = null;
    if (noBody || limit === 0) res.destroy();
    else {
      const read = await readCapped(res, limit);
      if (read.ok) body = read.body;
      else if (read.reason === 'broken' || call.stopped) throw unreachable(url.host);
      else if (status >= 200 && status < 300) throw new OutboundError('too_large', `${url.host} answered with more than ${limit} bytes`);
    }
    const out = new Response(noBody ? null : new Uint8Array(body ?? Buffer.alloc(0)), { status, headers: headersOf(res) });
    Object.defineProperty(out, 'url', { value: url.toString() });
    Object.defineProperty(out, 'redirected', { value: redirected });
    return out;
  }
}

/**
 * One fetch's deadline and abort signal: either destroys whatever socket is active (the request,
 * then the response), and `guard` turns the failure that follows into the timeout or the signal's
 * reason.
 */
class Call {
  active: { destroy(): void } | undefined;
  stopped: 'timeout' | 'aborted' | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = () => this.stop('aborted');

  constructor(
    private readonly signal: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    this.timer = setTimeout(() => this.stop('timeout'), timeoutMs);
    signal?.addEventListener('abort', this.onAbort, { once: true });
    if (signal?.aborted) this.stop('aborted');
  }

  private stop(why: 'timeout' | 'aborted') {
    this.stopped ??= why;
    this.active?.destroy();
  }

  async guard<T>(url: URL, p: Promise<T>): Promise<T> {
    if (this.stopped) this.active?.destroy();
    try {
      const v = await p;
      if (this.stopped) throw new Error('stopped');
      return v;
    } catch (e) {
      if (this.stopped === 'aborted') throw this.signal!.reason;
      if (this.stopped === 'timeout') throw new OutboundError('timeout', `${url.host} did not answer within ${this.timeoutMs / 1000} s`);
      throw e;
    }
  }

  end() {
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
    this.active?.destroy();
  }
}

function parseUrl(location: string, base: URL): URL | null {
  try {
    return new URL(location, base);
  } catch {
    return null;
  }
}

/** The response's headers, less the ones the inflated body no longer matches. */
function headersOf(res: IncomingMessage): Headers {
  const out = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (name === 'content-encoding' || name === 'content-length' || name === 'transfer-encoding') continue;
    try {
      out.append(name, raw[i + 1]!);
    } catch {
      // A header the WHATWG Headers refuse (bad bytes) is dropped, not fatal.
    }
  }
  return out;
}

async function bodyBytes(body: RequestInit['body'], headers: Headers): Promise<Buffer | undefined> {
  if (body == null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof URLSearchParams) {
    if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    return Buffer.from(body.toString());
  }
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return Buffer.from(await new Response(body).arrayBuffer());
}
