import { COLLECTION_NAMES, SCHEMA_VERSION, type DbFile } from './schema.js';

/**
 * Migrations from version N to N+1, keyed by N. Each takes the parsed file and returns the next
 * shape; the store snapshots the result once all have run, keeping the old file in backups/.
 */
export const MIGRATIONS: Record<number, (db: DbFile) => DbFile> = {};

export class FutureSchemaError extends Error {}

export function migrate(db: DbFile): { db: DbFile; migrated: boolean } {
  if (db.schema_version > SCHEMA_VERSION) {
    throw new FutureSchemaError(`schema_version ${db.schema_version} is newer than this kairos understands (${SCHEMA_VERSION}); upgrade kairos.`);
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
