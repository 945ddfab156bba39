import { open, readFile, unlink } from 'node:fs/promises';

export class DaemonRunningError extends Error {
  constructor(readonly pid: number, home: string) {
    super(`Another kairos daemon (pid ${pid}) is already running on ${home}. Stop it with "kairos daemon stop", or use another KAIROS_HOME.`);
  }
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One daemon per home: the lock file is created exclusively and holds our pid. A lock left by a
 * dead process is taken over.
 */
export async function acquireLock(path: string, home: string): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fh = await open(path, 'wx', 0o600);
      await fh.writeFile(String(process.pid));
      await fh.close();
      return async () => {
        const held = await readFile(path, 'utf8').catch(() => '');
        if (held.trim() === String(process.pid)) await unlink(path).catch(() => {});
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && pidAlive(pid)) throw new DaemonRunningError(pid, home);
      await unlink(path).catch(() => {});
    }
  }
  throw new Error(`Could not take the daemon lock ${path}.`);
}
