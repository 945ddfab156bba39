import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { onceInThisRun } from './once-in-run.js';

/**
 * Vitest global setup, first of all, of every tier but the unit tier: API, CLI and built tests
 * spawn `bin/kairos.js` or compiled children, which run `dist/`, while unit tests import `src/`.
 * Build `dist/` from `src/` now when it is older than its sources (scripts/prepare.mjs decides,
 * and skips a fresh build), so running one test file after an edit never tests stale code. A
 * failed build stops the run. Each tier in a run calls this; the first call does the work.
 */
export default function freshBuild(): void {
  if (onceInThisRun('kairos.fresh-build')) return;
  const root = join(import.meta.dirname, '..', '..');
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'prepare.mjs')], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`dist/ is stale and the build failed:\n${r.stdout}${r.stderr}`);
  if (/building/.test(r.stdout)) process.stdout.write(r.stdout);
}
