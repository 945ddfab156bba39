import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ICS_LIMIT } from '../contracts/calendar.js';
import { FeedError, type FeedFetcher, type FeedResponse, type FeedValidators } from '../domain/sync/feed-port.js';
import { VERSION } from '../version.js';

export interface FetcherOptions {
  /** Largest body accepted, bytes (default: the import limit, 10 MiB). */
  maxBytes?: number;
  /** Whole request, connect to last byte (default 30 s). */
  timeoutMs?: number;
  /** Redirects followed (default 5). */
  maxRedirects?: number;
}

/**
 * Fetches feeds over node:http(s) rather than fetch(): the body is counted as it arrives and cut
 * at the import limit, every hop of a redirect is checked (http/https only, at most 5), and the
 * whole exchange has one deadline. The address is the user's own (they subscribed to it); what
 * comes back is never echoed: errors name the status or the limit, not the body.
 */
export function createFeedFetcher(opts: FetcherOptions = {}): FeedFetcher {
  const maxBytes = opts.maxBytes ?? ICS_LIMIT;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const maxRedirects = opts.maxRedirects ?? 5;
  return {
    async fetch(url: string, prev: FeedValidators): Promise<FeedResponse> {
      const deadline = Date.now() + timeoutMs;
      let at = new URL(url);
      for (let hop = 0; ; hop++) {
        if (at.protocol !== 'http:' && at.protocol !== 'https:')
          throw new FeedError('feed_redirects', `The feed redirected to a ${at.protocol.replace(':', '')} address; only http and https are followed.`);
        const res = await get(at, prev, deadline, timeoutMs);
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && status !== 304 && res.headers.location) {
          res.resume();
          if (hop >= maxRedirects) throw new FeedError('feed_redirects', `The feed redirected more than ${maxRedirects} times.`);
          at = new URL(res.headers.location, at);
          continue;
        }
        if (status === 304) {
          res.resume();
          return { status: 'not_modified' };
        }
        if (status < 200 || status >= 300) {
          res.resume();
          throw new FeedError(
            'feed_http_error',
            `The feed answered HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}; the last good copy is kept.`,
          );
        }
        const text = await body(res, maxBytes, deadline, timeoutMs);
        return { status: 'ok', text, etag: header(res, 'etag'), lastModified: header(res, 'last-modified') };
      }
    },
  };
}

function header(res: IncomingMessage, name: string): string | null {
  const v = res.headers[name];
  return typeof v === 'string' && v.length <= 1024 ? v : null;
}

function get(url: URL, prev: FeedValidators, deadline: number, timeoutMs: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'text/calendar, */*;q=0.5', 'user-agent': `kairos/${VERSION}` };
    if (prev.etag) headers['if-none-match'] = prev.etag;
    if (prev.lastModified) headers['if-modified-since'] = prev.lastModified;
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method: 'GET', headers });
    const left = Math.max(1, deadline - Date.now());
    const timer = setTimeout(() => req.destroy(new FeedError('feed_timeout', `The feed did not answer within ${timeoutMs / 1000} s.`)), left);
    req.on('response', (res) => {
      clearTimeout(timer);
      resolve(res);
    });
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(
        e instanceof FeedError
          ? e
          : new FeedError('feed_unreachable', `The feed at ${url.host} could not be reached (${(e as NodeJS.ErrnoException).code ?? 'network error'}).`),
      );
    });
    req.end();
  });
}

function body(res: IncomingMessage, maxBytes: number, deadline: number, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(res.headers['content-length']);
    const tooLarge = () => new FeedError('feed_too_large', `The feed is larger than ${maxBytes} bytes, the import limit; the last good copy is kept.`);
    if (Number.isFinite(declared) && declared > maxBytes) {
      res.destroy();
      reject(tooLarge());
      return;
    }
    const parts: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(
      () => res.destroy(new FeedError('feed_timeout', `The feed did not finish within ${timeoutMs / 1000} s.`)),
      Math.max(1, deadline - Date.now()),
    );
    res.on('data', (b: Buffer) => {
      size += b.length;
      if (size > maxBytes) {
        res.destroy(tooLarge());
        return;
      }
      parts.push(b);
    });
    res.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(parts).toString('utf8'));
    });
    res.on('error', (e) => {
      clearTimeout(timer);
      reject(e instanceof FeedError ? e : new FeedError('feed_unreachable', 'The feed stopped in the middle of its answer; the last good copy is kept.'));
    });
    res.on('close', () => {
      if (!res.complete) {
        clearTimeout(timer);
        reject(new FeedError('feed_unreachable', 'The feed stopped in the middle of its answer; the last good copy is kept.'));
      }
    });
  });
}
