import { readFileSync, writeFileSync } from 'node:fs';
import { homePaths } from '../../src/config/paths.js';
import { Store } from '../../src/store/store.js';

/**
 * A stopped daemon's home holds its state in db.json plus the journal segments written after
 * it (a stop writes no snapshot; the next start replays them). To read or edit db.json by hand,
 * the journal is first folded in, here by the store's own code, as a start does in the
 * background. The daemon of `home` must be stopped.
 */
export async function foldJournal(home: string): Promise<void> {
  const store = await Store.open(homePaths(home));
  await store.snapshot();
  await store.close();
}

/** db.json of a stopped daemon's home with every acknowledged write folded in. */
export async function readStoredDb(home: string): Promise<any> {
  await foldJournal(home);
  return JSON.parse(readFileSync(homePaths(home).db, 'utf8'));
}

/** Edit db.json of a stopped daemon's home by hand, every acknowledged write folded in first. */
export async function editStoredDb(home: string, edit: (db: any) => void): Promise<void> {
  const db = await readStoredDb(home);
  edit(db);
  writeFileSync(homePaths(home).db, JSON.stringify(db));
}
