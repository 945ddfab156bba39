import { readFileSync } from 'node:fs';

/**
 * Whether the process runs: alive, and not a zombie. A daemon started in the background is
 * reparented to init once its CLI exits; an init that reaps late (seconds, in some containers)
 * leaves an exited (or SIGKILLed) daemon as a zombie that `kill(pid, 0)` still finds — its lock is
 * stale all the same. Used by the daemon's lock and by the client looking for a running daemon.
 */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc (macOS): kill(pid, 0) is all there is
  }
}
