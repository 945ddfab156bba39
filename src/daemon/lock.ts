import { tryPidLock } from '../platform/pid-lock.js';

export class DaemonRunningError extends Error {
  constructor(
    readonly pid: number,
    home: string,
  ) {
    super(`Another kairos daemon (pid ${pid}) is already running on ${home}. Stop it with "kairos daemon stop", or use another KAIROS_HOME.`);
  }
}

/**
 * One daemon per home: the lock file holds the pid of the daemon that owns the home, and a lock
 * whose process is gone is taken over (src/platform/pid-lock.ts). Resolves with the function that
 * releases it; throws DaemonRunningError when a live daemon holds it.
 */
export async function acquireLock(path: string, home: string): Promise<() => Promise<void>> {
  const got = await tryPidLock(path);
  if ('heldBy' in got) throw new DaemonRunningError(got.heldBy, home);
  return () => got.release();
}
