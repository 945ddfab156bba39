import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tryPidLock } from '../../../src/platform/pid-lock.js';
import { withFileLock } from '../../../src/sync/oauth/file-lock.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'kairos-pid-lock-'));
  dirs.push(d);
  return d;
};
/** The pid of a process that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('pid lock', () => {
  it('lets one of many contenders in at a time when they all find a stale lock (the stale-lock race)', async () => {
    const lock = join(tempDir(), 'token.lock');
    writeFileSync(lock, String(deadPid()));
    let inside = 0;
    let most = 0;
    await Promise.all(
      // Contenders arrive spread over a few milliseconds, so that some read the stale lock while
      // another is taking it over.
      Array.from({ length: 24 }, (_, i) =>
        pause(i % 6).then(() =>
          withFileLock(lock, 'refreshing', async () => {
            most = Math.max(most, ++inside);
            await pause(20);
            inside--;
          }),
        ),
      ),
    );
    expect(most).toBe(1);
    expect(existsSync(lock)).toBe(false);
  });

  it('names the live holder, and is free again once released', async () => {
    const lock = join(tempDir(), 'a.lock');
    const first = await tryPidLock(lock);
    expect('release' in first).toBe(true);
    expect(readFileSync(lock, 'utf8')).toBe(String(process.pid));
    expect(await tryPidLock(lock)).toEqual({ heldBy: process.pid });
    if ('release' in first) await first.release();
    const again = await tryPidLock(lock);
    expect('release' in again).toBe(true);
    if ('release' in again) await again.release();
  });

  it('takes over a lock of a dead process, and one naming this pid that this process does not hold', async () => {
    for (const owner of [deadPid(), process.pid]) {
      const lock = join(tempDir(), 'b.lock');
      writeFileSync(lock, String(owner));
      const got = await tryPidLock(lock);
      expect('release' in got).toBe(true);
      if ('release' in got) await got.release();
    }
  });

  it('refuses while a live process holds it, with a structured error after the wait', async () => {
    const lock = join(tempDir(), 'c.lock');
    writeFileSync(lock, String(process.ppid));
    await expect(withFileLock(lock, 'refreshing the token', async () => 1, { waitMs: 50 })).rejects.toMatchObject({ code: 'oauth_busy', status: 409 });
    expect(readFileSync(lock, 'utf8')).toBe(String(process.ppid));
  });
});
