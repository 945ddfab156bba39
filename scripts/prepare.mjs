#!/usr/bin/env node
// `npm run prepare`: build dist/ only when it is older than its sources.
//
// npm runs `prepare` after `npm install`, and npm 11 runs it again when `npx kairos` is used in
// the clone (it installs the project into its npx cache as a link, and a link's `prepare` runs).
// Rebuilding then cost 12–16 s on every first `npx kairos`; a dist/ newer than every source is
// the one that build would produce, so it is kept. `npm run build` always compiles.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from './build.mjs';

const ROOT = join(import.meta.dirname, '..');

/** Every file under dir (relative paths) with its mtime. */
function files(dir) {
  const out = new Map();
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(relative(dir, p), statSync(p).mtimeMs);
    }
  };
  try {
    walk(dir);
  } catch {
    // Missing folder: nothing in it.
  }
  return out;
}

/** Why dist/ must be rebuilt, or undefined when it is up to date. */
function staleness() {
  const src = files(join(ROOT, 'src'));
  const dist = files(join(ROOT, 'dist'));
  let newestInput = statSync(join(ROOT, 'tsconfig.json')).mtimeMs;
  for (const [path, mtime] of src) {
    newestInput = Math.max(newestInput, mtime);
    if (path.endsWith('.ts') && !path.endsWith('.d.ts') && !dist.has(path.replace(/\.ts$/, '.js'))) return `dist/ has no ${path.replace(/\.ts$/, '.js')}`;
  }
  // The page (web/) is built into dist/web/ by the same build.
  for (const mtime of files(join(ROOT, 'web')).values()) newestInput = Math.max(newestInput, mtime);
  const outputs = [...dist].filter(([p]) => p.endsWith('.js')).map(([, m]) => m);
  if (!outputs.length) return 'dist/ is empty';
  if (!dist.has(join('bundle', 'main.js'))) return 'dist/ has no bundle/main.js';
  if (!dist.has(join('web', 'app.js'))) return 'dist/ has no web/app.js';
  // tsc rewrites every output on each build: the oldest output is the time of the last build.
  if (Math.min(...outputs) < newestInput) return 'sources changed since the last build';
  return undefined;
}

const why = staleness();
if (!why) {
  process.stdout.write('kairos: dist/ is up to date, not rebuilding\n');
} else {
  process.stdout.write(`kairos: building (${why})\n`);
  process.exitCode = build();
}
