import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/daemon.js';

// Issue 15 items 7 and 8: what a fresh clone of the public repository meets.

describe('a fresh clone', () => {
  // Item 7: no ../shared beside the clone. The test files are copied (a symlink would resolve
  // back beside ../shared); the rest is linked. Two files that read ../shared: they must skip
  // with the reason, not fail.
  const clone = join(mkdtempSync(join(tmpdir(), 'kairos-clone-')), 'kairos');
  afterAll(() => rmSync(join(clone, '..'), { recursive: true, force: true }));

  it('runs the tests that need ../shared as skipped, saying why, when there is none', () => {
    cpSync(join(ROOT, 'test'), join(clone, 'test'), { recursive: true });
    for (const f of ['src', 'dist', 'models', 'node_modules', 'scripts', 'package.json', 'vitest.config.ts', 'tsconfig.json'])
      symlinkSync(join(ROOT, f), join(clone, f));
    const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    const r = spawnSync(process.execPath, [vitest, 'run', 'test/unit/ical/export.test.ts', 'test/api/calendar-ics.test.ts'], {
      cwd: clone,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', CI: '1' },
      timeout: 120_000,
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain(`4 tests skipped: needs ${join(clone, '..', 'shared')}`);
    expect(r.stdout).toMatch(/Tests: \d+ passed, 0 failed, 4 skipped/);
  }, 150_000);

  // Item 8: npm 11 runs the project's `prepare` again on the first `npx kairos` of a clone (it
  // installs the project into its npx cache as a link). `prepare` must not rebuild a dist/ that is
  // newer than its sources: the test run has just built it.
  it('npx kairos right after npm install: prepare keeps an up-to-date dist/ instead of compiling again', () => {
    const main = join(ROOT, 'dist', 'cli', 'main.js');
    const before = statSync(main).mtimeMs;
    const out = execFileSync('npm', ['run', 'prepare'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(out).toMatch(/dist\/ is up to date, not rebuilding/);
    expect(statSync(main).mtimeMs).toBe(before);
  });
});
