import { z } from 'zod';
import { ApiKey } from './auth.js';
import { CalendarEvent } from './calendar.js';
import { IsoDateTime } from './common.js';
import { EXPORT_FORMATS } from './export.js';
import { PatchOp, type StoredTrace } from './memory.js';
import { Plan } from './plans.js';
import { CaldavAccount, Subscription } from './sync.js';
import { TempoProfile } from './tempo.js';

/**
 * The documents of db.json, one schema per collection. Where a document is the API shape, the API
 * schema is the document schema (a trace, an event); where the service keeps more than it shows (a
 * key's hash, a plan's produced list), the document extends the API shape. The store's collection
 * map (store/schema.ts) takes its types from here, so `tx.get('traces', uid)` is a StoredTrace
 * without a type argument.
 */

/** A trace is stored as the API returns it: its schema is `MemoryTrace`. */
export type { StoredTrace };

/** One row of `trace_versions`: every version of every trace, with the patch from the previous one. */
export const TraceVersion = z.object({
  id: z.string().describe('`${uid}#${version}`'),
  uid: z.string(),
  user_id: z.string(),
  version: z.number().int(),
  timestamp: IsoDateTime,
  actor: z.string(),
  patch: z.array(PatchOp),
});
export type TraceVersion = z.infer<typeof TraceVersion>;

export const StoredEvent = CalendarEvent;
export type StoredEvent = z.infer<typeof StoredEvent>;

/** Something execution produced, with the fingerprint it had then (domain/plans/produced.ts). */
export const Produced = z.object({
  action_id: z.string(),
  collection: z.enum(['events', 'traces']),
  uid: z.string(),
  fingerprint: z.string(),
});
export type Produced = z.infer<typeof Produced>;

/** A plan as stored: the API shape plus what execution produced (editing one of them moves the plan to `edited`). */
export const StoredPlan = Plan.extend({ produced: z.array(Produced).optional() });
export type StoredPlan = z.infer<typeof StoredPlan>;

export const StoredUser = z.object({
  user_id: z.string(),
  email: z.string().nullable(),
  display_name: z.string(),
  timezone: z.string(),
  preferences: z.record(z.string(), z.unknown()),
  password_hash: z.string().nullable(),
  is_owner: z.boolean(),
  /** Bumped by a password change: login tokens carry it (`gen`), older ones stop working. Absent = 0. */
  token_gen: z.number().int().optional(),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
});
export type StoredUser = z.infer<typeof StoredUser>;

/** An API key as stored: the API shape plus the hash of its secret (the secret itself is never kept). */
export const StoredKey = ApiKey.extend({ hash: z.string() });
export type StoredKey = z.infer<typeof StoredKey>;

/** A tempo profile as stored: the time zone is the user's, kept on the user. */
export const StoredProfile = TempoProfile.omit({ timezone: true }).extend({ updated_at: IsoDateTime });
export type StoredProfile = z.infer<typeof StoredProfile>;

/** A named record of which version of each trace an export covered. */
export const StoredCheckpoint = z.object({
  id: z.string(),
  user_id: z.string(),
  name: z.string(),
  created_at: IsoDateTime,
  export_format: z.enum(EXPORT_FORMATS),
  filters: z.record(z.string(), z.unknown()),
  traces: z.record(z.string(), z.number()).describe('uid → version'),
});
export type StoredCheckpoint = z.infer<typeof StoredCheckpoint>;

/**
 * A feed subscription as stored: the API shape without what is computed at read time, plus the
 * validators of the last good copy (ETag, Last-Modified) for a conditional refresh.
 */
export const StoredSubscription = Subscription.omit({ event_count: true, next_refresh_at: true }).extend({
  etag: z.string().nullable(),
  last_modified: z.string().nullable(),
});
export type StoredSubscription = z.infer<typeof StoredSubscription>;

/** A CalDAV account as stored (its password is not here: sync-secrets.json). `id` is `${user_id}/${name}`. */
export const StoredCaldavAccount = CaldavAccount.omit({ events: true }).extend({
  id: z.string(),
  sync_token: z.string().nullable().describe('RFC 6578 token of the last pull'),
  ctag: z.string().nullable().describe('collection tag of the last pull (servers without sync-collection)'),
});
export type StoredCaldavAccount = z.infer<typeof StoredCaldavAccount>;

/** One event kept in sync: where it lives on the server and what both sides held at the last sync. */
export const CaldavItem = z.object({
  id: z.string().describe('`${account_id}|${event_uid}`'),
  account_id: z.string(),
  user_id: z.string(),
  event_uid: z.string(),
  ical_uid: z.string(),
  href: z.string(),
  etag: z.string().nullable(),
  fingerprint: z.string().describe("hash of the event's content at the last sync: a different one means a local change"),
});
export type CaldavItem = z.infer<typeof CaldavItem>;

/** The fields of an event its source carries: what an edit is measured against. */
export const SourceFields = CalendarEvent.pick({
  title: true,
  scheduled_for: true,
  duration_minutes: true,
  task_id: true,
  tag: true,
  description: true,
  location: true,
  all_day: true,
  timezone: true,
  rrule: true,
  rdates: true,
  exdates: true,
  overrides: true,
  status: true,
});
export type SourceFields = z.infer<typeof SourceFields>;

/**
 * The iCalendar text an event was read from (a CalDAV object as the server keeps it), so that an
 * edit is written back into it and what kairos does not model stays (src/ical/lossless.ts).
 * Keyed by the event's uid; written and removed by the calendar area with the event.
 */
export const EventSource = z.object({
  uid: z.string().describe("the event's uid"),
  user_id: z.string(),
  ics: z.string().describe('the iCalendar text, as received (or as last written back)'),
  base: SourceFields.describe('the event as that text reads: a field that differs now is an edit to write into it'),
});
export type EventSource = z.infer<typeof EventSource>;

/** Collection name → document type: the store's map. */
export interface Documents {
  users: StoredUser;
  api_keys: StoredKey;
  traces: StoredTrace;
  trace_versions: TraceVersion;
  events: StoredEvent;
  plans: StoredPlan;
  tempo_profiles: StoredProfile;
  checkpoints: StoredCheckpoint;
  subscriptions: StoredSubscription;
  caldav_accounts: StoredCaldavAccount;
  caldav_items: CaldavItem;
  event_sources: EventSource;
}
