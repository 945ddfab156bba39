/**
 * What the subscriptions service needs from the network: one conditional GET of a feed. The
 * infrastructure (src/sync/feed-fetcher.ts) implements it; the domain never touches a socket.
 */

export interface FeedValidators {
  etag: string | null;
  lastModified: string | null;
}

export type FeedResponse = { status: 'not_modified' } | { status: 'ok'; text: string; etag: string | null; lastModified: string | null };

/** A feed that could not be fetched: `code` is stable, `message` one clear sentence without the response body. */
export class FeedError extends Error {
  constructor(
    readonly code: 'feed_unreachable' | 'feed_http_error' | 'feed_too_large' | 'feed_timeout' | 'feed_redirects' | 'feed_not_calendar',
    message: string,
  ) {
    super(message);
    this.name = 'FeedError';
  }
}

export interface FeedFetcher {
  /** GET `url` with If-None-Match / If-Modified-Since from `prev`; throws FeedError. */
  fetch(url: string, prev: FeedValidators): Promise<FeedResponse>;
}
