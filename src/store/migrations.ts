import { isDerivableFirstVersion } from '../contracts/first-version.js';
import { COLLECTION_NAMES, type DbFile, type Doc, SCHEMA_VERSION } from './schema.js';

/**
 * Migrations from version N to N+1, keyed by N. Each takes the parsed file and returns the next
 * shape; the store snapshots the result once all have run, keeping the old file in backups/.
 */
export const MIGRATIONS: Record<number, (db: DbFile) => DbFile> = {
  1: grantProfileScopesToOwnerKeys,
  2: dropDerivedFirstVersions,
};

/**
 * 1 → 2: `GET /user/profile` and `PATCH /user/update` need the new scopes
 * `profile:read` / `profile:write`. The owner's keys that hold `admin` — the owner key of
 * credentials.json, minted with every scope — get both written out; `admin` implied them already,
 * so no key gains a power. Every other key stays as it is: it loses the profile routes.
 */
function grantProfileScopesToOwnerKeys(db: DbFile): DbFile {
  const owners = new Set((db.collections.users ?? []).filter((u) => u.is_owner === true).map((u) => u.user_id));
  const keys = (db.collections.api_keys ?? []).map((k) => {
    const scopes = Array.isArray(k.scopes) ? (k.scopes as string[]) : [];
    if (!owners.has(k.user_id) || !scopes.includes('admin')) return k;
    const next = [...new Set([...scopes, 'profile:read', 'profile:write'])];
    // Keep the order of the scope list: admin last.
    return { ...k, scopes: [...next.filter((s) => s !== 'admin'), 'admin'] };
  });
  return { ...db, schema_version: 2, collections: { ...db.collections, api_keys: keys } };
}

/**
 * 2 → 3: a trace's first history row is derived from the trace while it is unedited, not stored
 * (contracts/first-version.ts). The rows that say nothing their trace does not are dropped: about
 * half of the documents of a store of small traces. Any other row (an edited trace's, one that
 * differs from its trace) stays.
 */
function dropDerivedFirstVersions(db: DbFile): DbFile {
  const traces = new Map<unknown, Doc>();
  for (const t of db.collections.traces ?? []) traces.set(t.uid, t);
  const rows = (db.collections.trace_versions ?? []).filter((r) => !isDerivableFirstVersion(r, traces.get(r.uid)));
  return { ...db, schema_version: 3, collections: { ...db.collections, trace_versions: rows } };
}

export class FutureSchemaError extends Error {}

export const futureSchema = (version: number) => `schema_version ${version} is newer than this kairos understands (${SCHEMA_VERSION}); upgrade kairos.`;

export function migrate(db: DbFile): { db: DbFile; migrated: boolean } {
  if (db.schema_version > SCHEMA_VERSION) {
    throw new FutureSchemaError(futureSchema(db.schema_version));
  }
  let migrated = false;
  while (db.schema_version < SCHEMA_VERSION) {
    const step = MIGRATIONS[db.schema_version];
    if (!step) throw new FutureSchemaError(`no migration from schema_version ${db.schema_version}`);
    db = step(db);
    migrated = true;
  }
  // Collections added since the file was written start empty.
  for (const n of COLLECTION_NAMES) db.collections[n] ??= [];
  db.meta ??= {};
  db.journal_seq ??= 0;
  return { db, migrated };
}
