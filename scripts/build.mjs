#!/usr/bin/env node
// `npm run build`: dist/ from src/, from scratch. tsc never deletes the output of a source that
// was moved or removed; such a leftover would keep running from dist/ (and look stale to
// scripts/prepare.mjs for ever), so the folder is emptied first.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/**
 * Build dist/ (tsc), then dist/bundle/ (scripts/bundle.mjs, which bin/kairos.js runs), then the
 * page the daemon serves at /app/, bundled into dist/web/ (scripts/build-web.mjs); returns the
 * first failing step's exit status, or 0. The page's types are checked by `npm test`
 * (`npm run typecheck:web`), not here: every install and every stale-dist start waits on this.
 */
export function build() {
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const step = (args) => spawnSync(process.execPath, args, { stdio: 'inherit', cwd: ROOT }).status ?? 1;
  return step([tsc, '-p', join(ROOT, 'tsconfig.json')]) || step([join(ROOT, 'scripts', 'bundle.mjs')]) || step([join(ROOT, 'scripts', 'build-web.mjs')]);
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = build();
