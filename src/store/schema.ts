import type { Documents } from '../contracts/stored.js';

/**
 * The collections kept in db.json, their primary keys and the in-memory indexes the services
 * read from. A new collection is one line here; the store and the snapshot need nothing else.
 */
export const COLLECTIONS = {
  users: { key: 'user_id', indexes: ['email'] },
  api_keys: { key: 'id', indexes: ['hash', 'user_id'] },
  traces: { key: 'uid', indexes: ['user_id', 'task_id'] },
  /**
   * One row per trace version (id `${uid}#${version}`): the base of /memory/history and diff
   * export. An unedited trace's first row is derived from the trace, not stored.
   */
  trace_versions: { key: 'id', indexes: ['uid'] },
  events: { key: 'uid', indexes: ['user_id', 'task_id'] },
  plans: { key: 'plan_id', indexes: ['user_id', 'task_id'] },
  tempo_profiles: { key: 'user_id', indexes: [] },
  checkpoints: { key: 'id', indexes: ['user_id'] },
  /** Remote .ics feeds (domain/sync): one row per subscription; its events are in `events`. */
  subscriptions: { key: 'id', indexes: ['user_id'] },
  /** CalDAV accounts (domain/sync) and the events each keeps in sync. */
  caldav_accounts: { key: 'id', indexes: ['user_id'] },
  caldav_items: { key: 'id', indexes: ['account_id', 'event_uid'] },
  /** The iCalendar text each synced event was read from (domain/calendar/kept-source.ts). */
  event_sources: { key: 'uid', indexes: ['user_id'] },
} as const satisfies { [C in keyof Documents]: { key: keyof Documents[C] & string; indexes: readonly (keyof Documents[C] & string)[] } };

export type CollectionName = keyof typeof COLLECTIONS;
/** The document type of a collection (contracts/stored.ts): what `tx.get(c, id)` returns. */
export type DocOf<C extends CollectionName> = Documents[C];
/** The indexed fields of a collection: the only fields `byIndex` looks up by. */
export type IndexOf<C extends CollectionName> = (typeof COLLECTIONS)[C]['indexes'][number];
/** One change of a committed transaction to a collection, as `Store.changes` reports it. */
export type Change<C extends CollectionName> = { op: 'put'; doc: DocOf<C> } | { op: 'del'; id: string };
export const COLLECTION_NAMES = Object.keys(COLLECTIONS) as CollectionName[];

/** Bumped when the shape of db.json changes; `migrations.ts` carries older files forward. */
export const SCHEMA_VERSION = 3;

export type Doc = Record<string, unknown>;

export interface DbFile {
  schema_version: number;
  /** Sequence number of the last journal entry folded into this snapshot. */
  journal_seq: number;
  meta: Record<string, unknown>;
  collections: Record<CollectionName, Doc[]>;
}

export function emptyDb(): DbFile {
  return {
    schema_version: SCHEMA_VERSION,
    journal_seq: 0,
    meta: {},
    collections: Object.fromEntries(COLLECTION_NAMES.map((n) => [n, []])) as unknown as DbFile['collections'],
  };
}

/** A shape check of a parsed db.json: anything else is refused rather than silently replaced. */
export function shapeProblem(raw: unknown): string | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return 'the top level is not a JSON object';
  const r = raw as Record<string, unknown>;
  if (!Number.isInteger(r.schema_version)) return 'schema_version is missing or not an integer';
  if (r.meta !== undefined && (typeof r.meta !== 'object' || r.meta === null || Array.isArray(r.meta))) return 'meta is not an object';
  if (typeof r.collections !== 'object' || r.collections === null || Array.isArray(r.collections)) return 'collections is missing or not an object';
  for (const [name, rows] of Object.entries(r.collections as Record<string, unknown>)) {
    if (!Array.isArray(rows)) return `collections.${name} is not an array`;
    if (rows.some((x) => x === null || typeof x !== 'object' || Array.isArray(x))) return `collections.${name} holds a non-object`;
  }
  return undefined;
}
