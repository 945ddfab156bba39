#!/usr/bin/env node
// Part of `npm run build`: dist/bundle/, the CLI's and the daemon's code as a few files.
//
// Node 20's ESM loader costs ~1 ms of resolving, reading and linking per module; the daemon's
// start loaded ~480 of them (217 of ours), which was most of restart → /health at 1k and 10k
// (bench/README.md). The bundle is built from src/ (so its source map points at the .ts
// files); dynamic import()s stay split into chunks, so a command or a route still loads its
// heavy parts only when it runs. dist/ from tsc stays beside it: worker threads and child
// processes start from those files, and tests import them.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { rolldown } from 'rolldown';

const ROOT = join(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
export const BUNDLE_DIR = join(DIST, 'bundle');

/** Our imports name the .js that tsc writes; the bundle reads the .ts beside it (packages' own imports are left alone). */
const ownTsSources = {
  name: 'kairos-own-ts-sources',
  resolveId(source, importer) {
    if (!importer?.startsWith(SRC + '/') || !source.startsWith('.') || !source.endsWith('.js')) return null;
    const ts = join(dirname(importer), source).replace(/\.js$/, '.ts');
    return existsSync(ts) ? ts : null;
  },
};

/**
 * Our modules resolve files beside them (`new URL('../package.json', import.meta.url)`, a
 * worker's script): each one's `import.meta.url` becomes its tsc output's URL, found relative
 * to the chunk so that the folder can move.
 */
const ownImportMetaUrl = {
  name: 'kairos-own-import-meta-url',
  transform(code, id) {
    if (!id.startsWith(SRC + '/') || !code.includes('import.meta.url')) return null;
    const asDist = join(DIST, relative(SRC, id)).replace(/\.ts$/, '.js');
    const rel = relative(BUNDLE_DIR, asDist);
    return { code: code.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`), map: null };
  },
};

/**
 * Build dist/bundle/ (after tsc); throws on any error. Packages are bundled too: with our
 * modules alone the start gained ~10%, with the packages ~45% (restart → /health at 1k, measured
 * alternately). Only node: built-ins stay outside.
 */
export async function bundle() {
  rmSync(BUNDLE_DIR, { recursive: true, force: true });
  mkdirSync(BUNDLE_DIR, { recursive: true });
  const build = await rolldown({
    input: { main: join(SRC, 'cli', 'main.ts') },
    platform: 'node',
    cwd: ROOT,
    external: (id) => id.startsWith('node:'),
    plugins: [ownTsSources, ownImportMetaUrl],
    logLevel: 'warn',
    // depd (under koa's http-assert) uses eval on purpose; any other warning is shown.
    onLog(level, log, show) {
      if (log.code !== 'EVAL') show(level, log);
    },
  });
  await build.write({
    dir: BUNDLE_DIR,
    format: 'esm',
    sourcemap: true,
    // The map names src/ and node_modules/ files without copying them: a third of its size, and
    // Node reads the maps of every chunk it loads (bin/kairos.js turns source maps on).
    sourcemapExcludeSources: true,
    entryFileNames: '[name].js',
    chunkFileNames: 'chunk-[name]-[hash].js',
  });
  await build.close();
}

if (import.meta.url === `file://${process.argv[1]}`) await bundle();
