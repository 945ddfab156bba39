import { z } from 'zod';
import { IsoDateTime } from './common.js';
import { OAuthProviderName } from './oauth.js';

/**
 * Calendar sync: subscriptions to remote .ics feeds (read-only, refreshed by the daemon). One
 * schema per shape; the stored documents extend these in stored.ts.
 */

/** Shortest and longest refresh interval of a subscription, in minutes. */
export const SUBSCRIPTION_EVERY = { min: 5, max: 7 * 1440, default: 60 } as const;

/**
 * A URL whose protocol is one of `protocols` and that carries no user name or password (it would
 * be shown back in listings and errors): the messages say what to do instead.
 */
const urlWith = (protocols: string[], say: { protocol: (p: string) => string; credentials: string }) =>
  z
    .string()
    .trim()
    .max(2048)
    .superRefine((v, ctx) => {
      let u: URL;
      try {
        u = new URL(v);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'not a URL' });
        return;
      }
      if (!protocols.includes(u.protocol)) ctx.addIssue({ code: 'custom', message: say.protocol(u.protocol.replace(':', '')) });
      if (u.username || u.password) ctx.addIssue({ code: 'custom', message: say.credentials });
    });

/** A feed address: http(s) or webcal (read as https). */
export const FeedUrl = urlWith(['http:', 'https:', 'webcal:', 'webcals:'], {
  protocol: (p) => `only http, https and webcal URLs can be subscribed to, not ${p}`,
  credentials: 'a user name or password in the URL is not accepted',
}).describe('http(s):// or webcal:// address of an iCalendar feed');

export const SubscribeRequest = z
  .object({
    url: FeedUrl,
    name: z.string().trim().min(1).max(200).optional().describe("shown on the feed's events; default: the URL's host and file"),
    every_minutes: z
      .number()
      .int()
      .min(SUBSCRIPTION_EVERY.min)
      .max(SUBSCRIPTION_EVERY.max)
      .optional()
      .describe(`refresh interval (default ${SUBSCRIPTION_EVERY.default})`),
  })
  .strict();
export type SubscribeRequest = z.infer<typeof SubscribeRequest>;

/** The outcome of one refresh of a feed. */
export const RefreshOutcome = z
  .object({
    at: IsoDateTime,
    status: z.enum(['updated', 'not_modified', 'failed']),
    imported: z.number().int().describe('events new in the feed'),
    updated: z.number().int().describe('events whose content changed'),
    removed: z.number().int().describe('events gone from the feed, removed locally'),
    unchanged: z.number().int(),
    errors: z
      .array(z.object({ uid: z.string().optional(), line: z.number().int().optional(), message: z.string() }))
      .describe('events of the feed that could not be read (their last good copy is kept)'),
    error: z.object({ code: z.string(), message: z.string() }).optional().describe('why the refresh failed (the last good copy is kept)'),
  })
  .meta({ id: 'SubscriptionRefresh' });
export type RefreshOutcome = z.infer<typeof RefreshOutcome>;

export const Subscription = z
  .object({
    id: z.string(),
    user_id: z.string(),
    name: z.string(),
    url: z.string(),
    every_minutes: z.number().int(),
    event_count: z.number().int().describe('events of this feed in the calendar'),
    created_at: IsoDateTime,
    last_refresh_at: IsoDateTime.nullable(),
    last_success_at: IsoDateTime.nullable(),
    last_error: z.object({ code: z.string(), message: z.string(), at: IsoDateTime }).nullable(),
    next_refresh_at: IsoDateTime,
  })
  .meta({ id: 'Subscription' });
export type Subscription = z.infer<typeof Subscription>;

export const SubscriptionCreated = Subscription.extend({ refresh: RefreshOutcome }).meta({ id: 'SubscriptionCreated' });
export const SubscriptionList = z.object({ subscriptions: z.array(Subscription) });
export const SubscriptionIdParams = z.object({ id: z.string().min(1) });
export const SubscriptionRemoved = z.object({ deleted: z.string(), events_removed: z.number().int() });

// ------------------------------------------------------------------ two-way CalDAV

/** An account name: what `kairos cal sync run <name>` takes. */
export const AccountName = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, dot, dash and underscore, starting with a letter or digit');

export const CaldavUrl = urlWith(['http:', 'https:'], {
  protocol: () => 'a CalDAV collection is an http or https URL',
  credentials: 'give the user with --user and the password on stdin, not in the URL',
}).describe('URL of the calendar collection (e.g. https://dav.example.com/alice/work/)');

const AccountTarget = {
  name: AccountName,
  url: CaldavUrl,
};

/** A collection reached with a user name and password (Basic auth). */
const PasswordAccountRequest = z
  .object({
    ...AccountTarget,
    username: z.string().min(1).max(256),
    password: z.string().min(1).max(4096).describe('kept in the home folder (sync-secrets.json, mode 0600), never shown again'),
  })
  .strict();

/** A collection reached with a Bearer token from an OAuth provider of the daemon's home (`kairos cal oauth add`). */
const OAuthAccountRequest = z
  .object({
    ...AccountTarget,
    oauth: OAuthProviderName.describe(
      'name of an OAuth provider set up with `kairos cal oauth add` in the home folder of the daemon; a fresh access token is asked of it at each sync',
    ),
  })
  .strict();

/**
 * Either a password credential or an OAuth provider's name, never both: which one is told by the
 * keys present (`'oauth' in req`). A body with both or neither gets the one message below.
 */
export const AddAccountRequest = z.union([PasswordAccountRequest, OAuthAccountRequest], {
  error: 'give either username and password, or oauth (the name of an OAuth provider), not both',
});
export type AddAccountRequest = z.infer<typeof AddAccountRequest>;

export const SyncCounts = z.object({
  pulled: z.number().int().describe('events created or changed in kairos from the server'),
  pushed: z.number().int().describe('events created or changed on the server from kairos'),
  removed_local: z.number().int().describe('events removed in kairos because the server removed them'),
  removed_remote: z.number().int().describe('events removed on the server because kairos removed them'),
  conflicts: z.number().int().describe('events both sides changed: the server version kept, the local one as a sync_conflict trace'),
});
export type SyncCounts = z.infer<typeof SyncCounts>;

export const SyncConflict = z.object({
  event_uid: z.string(),
  title: z.string(),
  trace_uid: z.string().describe('the memory trace holding the local version (reason sync_conflict)'),
});

export const SyncRun = z
  .object({
    account: z.string(),
    at: IsoDateTime,
    status: z.enum(['ok', 'failed']),
    method: z.enum(['sync-collection', 'etag-listing', 'none']).describe('how the server changes were found'),
    counts: SyncCounts,
    conflicts: z.array(SyncConflict),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
  })
  .meta({ id: 'SyncRun' });
export type SyncRun = z.infer<typeof SyncRun>;

export const CaldavAccount = z
  .object({
    name: z.string(),
    user_id: z.string(),
    url: z.string(),
    username: z.string().nullable().describe('user name of a password account; null for an OAuth one'),
    auth: z.enum(['password', 'oauth']),
    oauth_provider: z.string().nullable().describe('the OAuth provider whose tokens the account uses (never a token); null for a password account'),
    created_at: IsoDateTime,
    last_sync_at: IsoDateTime.nullable(),
    last_success_at: IsoDateTime.nullable(),
    last_error: z.object({ code: z.string(), message: z.string(), at: IsoDateTime }).nullable(),
    last_counts: SyncCounts.nullable(),
    events: z.number().int().describe('events kairos holds in sync with this collection'),
  })
  .meta({ id: 'CaldavAccount' });
export type CaldavAccount = z.infer<typeof CaldavAccount>;

export const AccountList = z.object({ accounts: z.array(CaldavAccount) });
export const AccountNameParams = z.object({ name: AccountName });
export const SyncRunQuery = z.object({ name: AccountName.optional().describe('one account (default: all of yours)') });
export const SyncRunList = z.object({ runs: z.array(SyncRun) });
export const AccountRemoved = z.object({
  deleted: z.string(),
  secret_removed: z.boolean().describe('a password account: its stored password was deleted'),
  oauth_provider: z
    .string()
    .nullable()
    .describe('an OAuth account: its provider, kept (it may serve other accounts; `kairos cal oauth remove` deletes it and its tokens)'),
});
export type AccountRemoved = z.infer<typeof AccountRemoved>;
