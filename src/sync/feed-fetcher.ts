import { FeedError, type FeedFetcher, type FeedResponse, type FeedValidators } from '../domain/sync/feed-port.js';
import { createOutboundClient, type OutboundClient } from './outbound/outbound-client.js';
import { OutboundError } from './outbound/outbound-error.js';

/**
 * Feeds through the outbound client (src/sync/outbound/): its address policy, body cap, deadline
 * and redirect checks apply to every hop. A feed's own words never reach an error: errors name the
 * status or the limit, never the body or the reason phrase, and every refusal or network failure
 * reads the same.
 */
export function createFeedFetcher(client: OutboundClient = createOutboundClient()): FeedFetcher {
  return {
    async fetch(url: string, prev: FeedValidators): Promise<FeedResponse> {
      const headers: Record<string, string> = { accept: 'text/calendar, */*;q=0.5' };
      if (prev.etag) headers['if-none-match'] = prev.etag;
      if (prev.lastModified) headers['if-modified-since'] = prev.lastModified;
      let res: Response;
      try {
        // Only a 2xx body is of use: any other answer is closed unread.
        res = await client.fetch(url, { headers, errorBodyBytes: 0 });
      } catch (e) {
        throw feedError(e);
      }
      if (res.status === 304) return { status: 'not_modified' };
      if (res.status < 200 || res.status >= 300) throw new FeedError('feed_http_error', `The feed answered HTTP ${res.status}; the last good copy is kept.`);
      return { status: 'ok', text: await res.text(), etag: header(res, 'etag'), lastModified: header(res, 'last-modified') };
    },
  };
}

function header(res: Response, name: string): string | null {
  const v = res.headers.get(name);
  return v !== null && v.length <= 1024 ? v : null;
}

function feedError(e: unknown): FeedError {
  if (!(e instanceof OutboundError)) return new FeedError('feed_unreachable', 'The feed could not be fetched; the last good copy is kept.');
  switch (e.code) {
    case 'too_large':
      return new FeedError('feed_too_large', `The feed is too large (${e.message}); the last good copy is kept.`);
    case 'timeout':
      return new FeedError('feed_timeout', `The feed did not finish in time: ${e.message}; the last good copy is kept.`);
    case 'redirects':
      return new FeedError('feed_redirects', `The feed's redirects were not followed: ${e.message}.`);
    default:
      return new FeedError('feed_unreachable', `The feed at ${e.message}; the last good copy is kept.`);
  }
}
