import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Vitest global setup, first of all: API and CLI tests spawn `bin/kairos.js`, which runs `dist/`,
 * while unit tests import `src/`. Build `dist/` from `src/` now when it is older than its sources
 * (scripts/prepare.mjs decides, and skips a fresh build), so running one test file after an edit
 * never tests stale code. A failed build stops the run.
 */
export default function freshBuild(): void {
  const root = join(import.meta.dirname, '..', '..');
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'prepare.mjs')], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`dist/ is stale and the build failed:\n${r.stdout}${r.stderr}`);
  if (/building/.test(r.stdout)) process.stdout.write(r.stdout);
}
