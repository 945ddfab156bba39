import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/daemon.js';

// Issue 15 item 8: npm 11 runs the project's `prepare` again on the first `npx kairos` of a clone
// (it installs the project into its npx cache as a link). `prepare` must not rebuild a dist/ that
// is newer than its sources: the test run has just built it.
describe('npx kairos right after npm install', () => {
  it('prepare keeps an up-to-date dist/ instead of compiling again', () => {
    const main = join(ROOT, 'dist', 'cli', 'main.js');
    const before = statSync(main).mtimeMs;
    const out = execFileSync('npm', ['run', 'prepare'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(out).toMatch(/dist\/ is up to date, not rebuilding/);
    expect(statSync(main).mtimeMs).toBe(before);
  });
});
