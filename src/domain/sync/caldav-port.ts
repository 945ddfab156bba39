/**
 * What two-way sync needs of a CalDAV server (RFC 4791, RFC 6578), for one collection. The
 * infrastructure (src/sync/caldav-client.ts, over tsdav) implements it; the domain sees hrefs,
 * etags and iCalendar text only.
 */

export interface RemoteRef {
  href: string;
  etag: string | null;
}

export interface RemoteObject extends RemoteRef {
  data: string;
}

/** How the server's changes since the last pull were found. */
export type ChangeSet =
  | { method: 'sync-collection'; token: string; changed: RemoteRef[]; removed: string[] }
  /** The server has no sync-collection (or refused the token): every object with its etag. */
  | { method: 'etag-listing'; ctag: string | null; all: RemoteRef[] }
  /** The collection's ctag has not moved since the last pull. */
  | { method: 'none'; ctag: string | null };

export interface CalDavSession {
  /** Changes since `state` (sync token, else ctag). */
  changes(state: { syncToken: string | null; ctag: string | null }): Promise<ChangeSet>;
  /** The objects at `hrefs` (calendar-multiget); an href gone meanwhile is left out. */
  get(hrefs: string[]): Promise<RemoteObject[]>;
  /** Create (`ifNoneMatch`) or replace (`ifMatch`) an object; the new etag when the server gives one. */
  put(href: string, data: string, cond: { ifMatch: string | null } | { ifNoneMatch: true }): Promise<{ etag: string | null }>;
  delete(href: string, ifMatch: string | null): Promise<void>;
  /** The href a new object with this UID is created at. */
  hrefFor(icalUid: string): string;
}

/**
 * How a session authenticates: Basic with a stored password, or a Bearer token from an OAuth
 * provider. `accessToken` is asked once when the session opens; `refresh: true` when the server
 * answered 401 to the token it gave (the session asks that once, retries once, then fails with
 * `caldav_auth_failed` naming `provider` and the command that authorizes it again).
 */
export type CalDavCredentials =
  | { username: string; password: string }
  | { provider: string; accessToken: (o: { refresh: boolean }) => Promise<string>; reauthorize: string };

export interface CalDavConnector {
  /** A session on one collection; checks the credentials and that the URL is a calendar (CalDavError otherwise). */
  open(url: string, creds: CalDavCredentials): Promise<CalDavSession>;
}

/**
 * A failure talking to the server. `code` is stable; `message` says what happened in our words
 * (never the password, never the server's body). `precondition_failed` is an etag that moved: the
 * other side changed the object meanwhile.
 */
export class CalDavError extends Error {
  constructor(
    readonly code:
      | 'caldav_auth_failed'
      | 'caldav_unreachable'
      | 'caldav_not_calendar'
      | 'caldav_http_error'
      | 'precondition_failed'
      | 'caldav_timeout'
      | 'caldav_too_large',
    message: string,
  ) {
    super(message);
    this.name = 'CalDavError';
  }
}
