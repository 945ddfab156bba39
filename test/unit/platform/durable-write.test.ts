import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeRaw } from '../../../src/cli/commands/config/settings.js';
import { writeFileDurable } from '../../../src/platform/durable-write.js';
import { writeSecretFile } from '../../../src/sync/oauth/secret-file.js';
import { createSecretFile } from '../../../src/sync/secret-file.js';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'kairos-durable-'));
  dirs.push(d);
  return d;
};

/** Counts fsync calls made through file handles (a file's and its folder's). */
async function countSyncs(): Promise<{ count: () => number }> {
  const probe = await open(tmpdir(), 'r');
  const proto = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
  await probe.close();
  const spy = vi.spyOn(proto, 'sync');
  return { count: () => spy.mock.calls.length };
}

describe('writeFileDurable', () => {
  it('replaces the file whole, private by default, and leaves no temp file', async () => {
    const dir = tempDir();
    const path = join(dir, 'a.json');
    writeFileSync(path, 'old');
    await writeFileDurable(path, 'new');
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['a.json']);
  });

  it('keeps the old file and no temp file when the write fails', async () => {
    const dir = tempDir();
    const path = join(dir, 'a.json');
    writeFileSync(path, 'old');
    // A rename over a folder fails after the temp file was written.
    await expect(writeFileDurable(dir, 'new')).rejects.toThrow();
    expect(readFileSync(path, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['a.json']);
  });

  it.each([
    ['the CalDAV password file', (path: string) => createSecretFile(path).set('a', { username: 'u', password: 'p' })],
    ['an OAuth token file', (path: string) => writeSecretFile(path, '{}')],
    ['config.json', (path: string) => writeRaw(path, { port: 7341 })],
  ])("makes %s durable: the file and its folder are fsync'd", async (_what, write) => {
    const path = join(tempDir(), 'file.json');
    const syncs = await countSyncs();
    await write(path);
    expect(syncs.count()).toBeGreaterThanOrEqual(2);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});
