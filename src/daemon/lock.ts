import { randomBytes } from 'node:crypto';
import { link, open, readdir, readFile, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pidAlive } from '../platform/process.js';

export class DaemonRunningError extends Error {
  constructor(
    readonly pid: number,
    home: string,
  ) {
    super(`Another kairos daemon (pid ${pid}) is already running on ${home}. Stop it with "kairos daemon stop", or use another KAIROS_HOME.`);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const code = (e: unknown) => (e as NodeJS.ErrnoException).code;

/** The pid a lock file names, or undefined when it names none (legacy empty file, garbage). */
function parsePid(text: string): number | undefined {
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** The lock's content, or undefined when there is no lock file. */
async function readLock(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    if (code(e) === 'ENOENT') return undefined;
    throw e;
  }
}

/** Whether a lock naming `pid` belongs to a live process other than this one. */
const heldByOther = (pid: number | undefined) => pid !== undefined && pid !== process.pid && pidAlive(pid);

/**
 * Create the lock holding our pid, all at once: the pid is written and synced in a private temp
 * file which is then hard-linked to the lock path. link() fails if the path exists, and the lock
 * is never visible empty or half-written.
 */
async function tryCreate(path: string, token: string): Promise<boolean> {
  const tmp = `${path}.${token}.tmp`;
  const fh = await open(tmp, 'wx', 0o600);
  try {
    await fh.writeFile(String(process.pid));
    await fh.sync();
    await fh.close();
    await link(tmp, path);
    return true;
  } catch (e) {
    if (code(e) === 'EEXIST') return false;
    throw e;
  } finally {
    await fh.close().catch(() => {});
    await unlink(tmp).catch(() => {});
  }
}

/**
 * Remove a lock left by a dead process, under a mutex so that two starters cannot both decide it
 * is stale and one of them remove the lock the other just took. The mutex needs no staleness rule
 * of its own: each contender creates a claim file named by its pid and a random token, then
 * lists the claims; it may proceed only if no other live process has one (a claim of a dead pid
 * is deleted). Two live contenders that overlap both see each other and back off, so at most one
 * is ever inside. Inside, the lock is read again: only its (dead) owner could remove it, so if it
 * still names a dead pid it can be unlinked safely.
 */
async function removeStale(path: string, token: string): Promise<boolean> {
  const dir = dirname(path);
  const prefix = `${basename(path)}.takeover.`;
  const mine = join(dir, prefix + token);
  const fh = await open(mine, 'wx', 0o600);
  await fh.close();
  try {
    for (const name of await readdir(dir)) {
      if (!name.startsWith(prefix) || join(dir, name) === mine) continue;
      const pid = parsePid(name.slice(prefix.length).split('.')[0] ?? '');
      // Our own pid on another claim can only be a previous life of this pid (a container restart).
      if (heldByOther(pid)) return false;
      await unlink(join(dir, name)).catch(() => {});
    }
    const text = await readLock(path);
    if (text !== undefined && !heldByOther(parsePid(text))) await unlink(path).catch(() => {});
    return true;
  } finally {
    await unlink(mine).catch(() => {});
  }
}

/**
 * One daemon per home: the lock file holds the pid of the daemon that owns the home (see
 * tryCreate), and a lock whose process is gone is taken over (see removeStale). Resolves with the
 * function that releases it; throws DaemonRunningError when a live daemon holds it.
 */
export async function acquireLock(path: string, home: string): Promise<() => Promise<void>> {
  const token = `${process.pid}.${randomBytes(6).toString('hex')}`;
  for (let attempt = 0; attempt < 100; attempt++) {
    if (await tryCreate(path, token)) {
      return async () => {
        const held = await readLock(path).catch(() => undefined);
        if (held !== undefined && parsePid(held) === process.pid) await unlink(path).catch(() => {});
      };
    }
    const text = await readLock(path);
    if (text === undefined) continue; // released meanwhile
    const pid = parsePid(text);
    if (heldByOther(pid)) throw new DaemonRunningError(pid!, home);
    if (!(await removeStale(path, token))) await sleep(5 + Math.random() * 25);
  }
  throw new Error(`Could not take the daemon lock ${path}: other starters kept contending for it.`);
}
