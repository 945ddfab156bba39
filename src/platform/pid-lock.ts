import { randomBytes } from 'node:crypto';
import { link, open, readdir, readFile, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pidAlive } from './process.js';

/**
 * A lock file that holds the pid of its owner, shared by every process of a home: the daemon's one
 * per home, a model file being converted, an OAuth refresh. A lock whose process is gone is taken
 * over without the race of "remove the stale lock, then create ours", where a second contender
 * removes the lock the first one just took.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const code = (e: unknown) => (e as NodeJS.ErrnoException).code;

/** Locks this process holds now: a lock naming our own pid is live only if it is in here. */
const heldHere = new Set<string>();

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

/**
 * Whether a lock naming `pid` is held: by a live process other than this one, or by this process
 * through a lock it took and has not released. Our own pid on a lock we do not hold is a previous
 * life of this pid (a container restart reuses pids).
 */
const heldBy = (path: string, pid: number | undefined) => pid !== undefined && (pid === process.pid ? heldHere.has(path) : pidAlive(pid));

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

/** Attempts of this process on one path run one at a time: the files tell processes apart, not calls. */
const attemptsHere = new Map<string, Promise<unknown>>();
function oneAtATime<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const run = (attemptsHere.get(path) ?? Promise.resolve()).then(fn, fn);
  const tail = run.catch(() => {});
  attemptsHere.set(path, tail);
  void tail.then(() => {
    if (attemptsHere.get(path) === tail) attemptsHere.delete(path);
  });
  return run;
}

/**
 * Remove a lock left by a dead process, under a mutex so that two contenders cannot both decide it
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
      // Our own pid on another claim is a previous life of this pid: this process has one claim at a time.
      if (pid !== undefined && pid !== process.pid && pidAlive(pid)) return false;
      await unlink(join(dir, name)).catch(() => {});
    }
    const text = await readLock(path);
    if (text !== undefined && !heldBy(path, parsePid(text))) await unlink(path).catch(() => {});
    return true;
  } finally {
    await unlink(mine).catch(() => {});
  }
}

/** A lock taken: `release` removes it if it still holds our pid. */
export interface PidLock {
  release(): Promise<void>;
}

/**
 * Take the lock at `path` once: the lock, or the pid of the live process that holds it (our own
 * pid when another call of this process holds it). A lock whose process is gone is taken over.
 */
export function tryPidLock(path: string): Promise<PidLock | { heldBy: number }> {
  return oneAtATime(path, () => attempt(path));
}

async function attempt(path: string): Promise<PidLock | { heldBy: number }> {
  if (heldHere.has(path)) return { heldBy: process.pid };
  const token = `${process.pid}.${randomBytes(6).toString('hex')}`;
  for (let n = 0; n < 100; n++) {
    if (await tryCreate(path, token)) {
      heldHere.add(path);
      let released = false;
      return {
        release: async () => {
          if (released) return;
          released = true;
          const held = await readLock(path).catch(() => undefined);
          if (held !== undefined && parsePid(held) === process.pid) await unlink(path).catch(() => {});
          heldHere.delete(path);
        },
      };
    }
    const text = await readLock(path);
    if (text === undefined) continue; // released meanwhile
    const pid = parsePid(text);
    if (heldBy(path, pid)) return { heldBy: pid! };
    if (!(await removeStale(path, token))) await sleep(5 + Math.random() * 25);
  }
  throw new Error(`Could not take the lock ${path}: other processes kept contending for it.`);
}

/**
 * Run `fn` holding the lock at `path`, waiting up to `waitMs` for its holder to release it;
 * `busy(pid)` makes the error thrown when it is still held then.
 */
export async function withPidLock<T>(path: string, fn: () => Promise<T>, o: { waitMs: number; pollMs?: number; busy: (pid: number) => Error }): Promise<T> {
  const until = Date.now() + o.waitMs;
  for (;;) {
    const got = await tryPidLock(path);
    if ('release' in got) {
      try {
        return await fn();
      } finally {
        await got.release();
      }
    }
    if (Date.now() > until) throw o.busy(got.heldBy);
    await sleep(o.pollMs ?? 50);
  }
}
