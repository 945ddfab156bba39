import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DIR_MODE } from '../../config/paths.js';
import { AppError } from '../../errors.js';
import { pidAlive } from '../../platform/process.js';

const pause = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

/**
 * Runs `fn` holding a lock file (created exclusively, holding the pid) shared by every kairos
 * process of the home: the daemon's sync and a CLI command must not both spend one refresh token,
 * since a server that rotates refresh tokens treats the second use as theft and revokes the grant.
 * A lock left by a dead process, or older than `staleMs`, is taken over.
 */
export async function withFileLock<T>(path: string, what: string, fn: () => Promise<T>, o: { staleMs?: number; waitMs?: number } = {}): Promise<T> {
  const staleMs = o.staleMs ?? 120_000;
  const until = Date.now() + (o.waitMs ?? 60_000);
  await mkdir(dirname(path), { recursive: true, mode: DIR_MODE });
  for (;;) {
    try {
      const fh = await open(path, 'wx', 0o600);
      await fh.writeFile(`${process.pid}\n`);
      await fh.close();
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (await isStale(path, staleMs)) {
      await rm(path, { force: true });
      continue;
    }
    if (Date.now() > until) throw new AppError(409, 'oauth_busy', `Another kairos process is ${what}; try again in a moment (lock: ${path}).`);
    await pause(50);
  }
  try {
    return await fn();
  } finally {
    await rm(path, { force: true });
  }
}

async function isStale(path: string, staleMs: number): Promise<boolean> {
  try {
    const [text, st] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    const pid = Number(text.trim());
    // An empty file is a lock being written this instant: not stale unless it stays so.
    if (Number.isInteger(pid) && pid > 0 && !pidAlive(pid)) return true;
    return Date.now() - st.mtimeMs > staleMs;
  } catch {
    return false; // gone already: the next open will tell
  }
}
