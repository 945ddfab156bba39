import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DIR_MODE } from '../../config/paths.js';
import { AppError } from '../../errors.js';
import { withPidLock } from '../../platform/pid-lock.js';

/**
 * Runs `fn` holding a lock file (src/platform/pid-lock.ts) shared by every kairos process of the
 * home: the daemon's sync and a CLI command must not both spend one refresh token, since a server
 * that rotates refresh tokens treats the second use as theft and revokes the grant. A lock left by
 * a dead process is taken over.
 */
export async function withFileLock<T>(path: string, what: string, fn: () => Promise<T>, o: { waitMs?: number } = {}): Promise<T> {
  await mkdir(dirname(path), { recursive: true, mode: DIR_MODE });
  return withPidLock(path, fn, {
    waitMs: o.waitMs ?? 60_000,
    busy: () => new AppError(409, 'oauth_busy', `Another kairos process is ${what}; try again in a moment (lock: ${path}).`),
  });
}
