import { copyFile, link, mkdir, readdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { DIR_MODE, type HomePaths } from '../config/paths.js';
import { fsyncDir } from '../platform/durable-write.js';
import { copyFileDurable } from './durable-file.js';
import type { SegmentFinding } from './journal.js';

/** The store refused to open: the message names the file and says how to recover. */
export class StoreOpenError extends Error {}

/**
 * A snapshot cut short by a crash leaves its temp file (`db.json.<pid>.tmp`, as big as db.json):
 * never read, so removed at the next open. Only the daemon opens the store (it holds the lock).
 */
export async function removeDeadSnapshots(db: string): Promise<void> {
  const prefix = `${basename(db)}.`;
  for (const n of await readdir(dirname(db)).catch(() => [] as string[])) {
    if (n.startsWith(prefix) && n.endsWith('.tmp') && n !== `${prefix}${process.pid}.tmp`) await unlink(join(dirname(db), n)).catch(() => {});
  }
}

/**
 * What db.json and the journal hold is kept in memory (all but their large strings, which
 * stay on disk: spill.ts): a home larger than this process's heap may hold is refused up
 * front, with the command that gives it room, rather than failing with V8's out-of-memory
 * crash halfway through the reading. Homes of long texts need less than this asks for.
 */
export function refuseWhatCannotFit(db: string, bytes: number): void {
  const limit = getHeapStatistics().heap_size_limit;
  if (bytes <= limit) return;
  const mb = (n: number) => Math.ceil(n / 2 ** 20);
  throw new StoreOpenError(
    `${db} and its journal hold ${mb(bytes)} MB, more than this process's heap limit of ${mb(limit)} MB can hold. Nothing was changed. Start the daemon with a larger limit:  NODE_OPTIONS=--max-old-space-size=${2 * mb(bytes)} kairos daemon start`,
  );
}

/** Keep the bad file as it is, save a copy, and explain how to restore the last good backup. */
export async function refuseCorrupt(paths: HomePaths, reason: string): Promise<StoreOpenError> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const copy = `${paths.db}.corrupt-${stamp}`;
  await copyFile(paths.db, copy).catch(() => {});
  const backups = await listBackups(paths.backups);
  const restore = backups.length
    ? `Restore the last good backup with:  cp ${join(paths.backups, backups[0]!)} ${paths.db}`
    : 'No backup exists yet; fix the file by hand or move it away to start empty.';
  return new StoreOpenError(`${paths.db} is corrupt: ${reason}. It was left untouched and copied to ${copy}. ${restore}`);
}

/** The backups of db.json, newest first. */
async function listBackups(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir))
      .filter((n) => n.endsWith('.json'))
      .sort()
      .reverse();
  } catch {
    return [];
  }
}

/** Keep the current db.json in backups/ (the newest `keep` of them), before a snapshot replaces it. */
export async function backupCurrent(paths: HomePaths, keep: number): Promise<void> {
  try {
    await stat(paths.db);
  } catch {
    return;
  }
  await mkdir(paths.backups, { recursive: true, mode: DIR_MODE });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const backup = join(paths.backups, `db-${stamp}.json`);
  // A hard link, not a copy: db.json is only ever replaced by a rename, never written in place,
  // so the link keeps the previous snapshot's bytes (already synced) for the cost of a name.
  await unlink(backup).catch(() => {}); // two snapshots within one millisecond
  try {
    await link(paths.db, backup);
    await fsyncDir(paths.backups);
  } catch {
    // A file system without hard links: copy, as durably.
    await unlink(backup).catch(() => {});
    await copyFileDurable(paths.db, backup);
  }
  const all = await listBackups(paths.backups);
  for (const old of all.slice(keep)) await unlink(join(paths.backups, old)).catch(() => {});
}

/** The bytes of these files together (a missing one counts none). */
export async function totalSize(files: string[]): Promise<number> {
  let total = 0;
  for (const f of files)
    total += await stat(f).then(
      (s) => s.size,
      () => 0,
    );
  return total;
}

/**
 * Why the journal cannot be replayed, and the command that keeps every intact record: it deletes
 * exactly the damaged lines, keeping the original beside it as `<segment>.damaged` (not a segment
 * name, so it is never replayed).
 */
export function journalDamage(damaged: SegmentFinding[]): string {
  const where = damaged.map((f) => `${f.path} line${f.damagedLines!.length > 1 ? 's' : ''} ${f.damagedLines!.join(', ')}`).join('; ');
  const fix = damaged.map((f) => `sed -i.damaged '${f.damagedLines!.map((l) => `${l}d`).join(';')}' ${f.path}`).join(' && ');
  return `The journal is damaged: ${where} ${damaged.length > 1 || damaged[0]!.damagedLines!.length > 1 ? 'are' : 'is'} not a whole record, and later records follow. Nothing was changed. To drop only the damaged records and keep every intact one, run:  ${fix}`;
}
