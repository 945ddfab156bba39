import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The import arrows of docs/architecture.md. The layer rule itself is Biome's noRestrictedImports,
 * configured per folder in biome.json and run by `npm test` over the whole tree; these cases prove
 * that configuration refuses an upward import of each layer (a probe given on stdin, nothing
 * written), and check what a per-file import rule cannot: commands share code only through
 * cli/output, cli/input and cli/flows; the CLI has no import cycle; the domain's search port holds
 * types only.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');
const BIOME = join(ROOT, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');

/** Lint one would-be file with the project's biome.json, in a scratch copy of the layout; true when Biome refuses the import. */
function refused(path: string, source: string): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'kairos-layers-'));
  try {
    copyFileSync(join(ROOT, 'biome.json'), join(dir, 'biome.json'));
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), source);
    const r = spawnSync(process.execPath, [BIOME, 'lint', path], { cwd: dir, encoding: 'utf8' });
    return r.status !== 0 && /noRestrictedImports/.test(r.stdout + r.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** [file, an import it must not make, an import it may make]. */
const PROBES: [string, string, string][] = [
  ['src/time/probe.ts', '../contracts/common.js', './zone.js'],
  ['src/platform/probe.ts', '../config/paths.js', 'node:fs'],
  ['src/contracts/probe.ts', '../domain/clock.js', '../time/tags.js'],
  ['src/ical/probe.ts', '../domain/calendar/occurrences.js', '../time/zone.js'],
  ['src/store/probe.ts', '../domain/clock.js', '../contracts/stored.js'],
  ['src/search/probe.ts', '../domain/memory/memory-service.js', '../domain/memory/search-port.js'],
  ['src/sync/oauth/probe.ts', '../../domain/calendar/calendar-service.js', '../../config/paths.js'],
  ['src/domain/memory/probe.ts', '../../search/index.js', '../../store/store.js'],
  ['src/sync/probe.ts', '../domain/sync/subscriptions-service.js', '../domain/sync/feed-port.js'],
  ['src/domain/sync/probe.ts', '../../sync/feed-fetcher.js', '../calendar/feed-apply.js'],
  ['src/domain/memory/probe2.ts', '../../server/services.js', '../../ical/import.js'],
  ['src/server/probe.ts', '../cli/main.js', '../domain/clock.js'],
  ['src/client/probe.ts', '../daemon/lock.js', '../config/paths.js'],
  ['src/mcp/probe.ts', '../server/services.js', '../contracts/endpoints.js'],
  ['src/cli/commands/trace/probe.ts', '../../../domain/memory/memory-service.js', '../../../client/http.js'],
  ['src/cli/probe.ts', '../store/store.js', './commands/daemon/index.js'],
  ['web/src/views/probe.ts', '../../../src/server/services.js', '../../../src/time/zone-cache.js'],
];

describe('the layer rule (biome.json)', () => {
  it.each(PROBES)('%s may not import %s, may import %s', (file, upward, allowed) => {
    expect(refused(file, `import { x } from '${upward}';\nexport const y = x;\n`)).toBe(true);
    expect(refused(file, `import { x } from '${allowed}';\nexport const y = x;\n`)).toBe(false);
  });
});

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(SRC, join(e.parentPath, e.name)));
}

/** Relative modules a file imports (static, re-exports and dynamic), as paths under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)].map((m) => m[1] ?? m[2]!);
  return specs.filter((s) => s.startsWith('.')).map((s) => relative(SRC, resolve(dirname(join(SRC, file)), s)).replace(/\.js$/, '.ts'));
}

describe('what an import rule cannot say', () => {
  const cli = tsFiles(join(SRC, 'cli'));
  const graph = new Map(cli.map((f) => [f, importsOf(f)]));
  const commandOf = (f: string) => /^cli\/commands\/([^/]+)\//.exec(f)?.[1];

  it('no command imports from another command', () => {
    const crossing = cli.flatMap((f) =>
      graph
        .get(f)!
        .filter((to) => commandOf(f) && commandOf(to) && commandOf(to) !== commandOf(f))
        .map((to) => `${f} → ${to}`),
    );
    expect(crossing).toEqual([]);
  });

  it('the CLI has no import cycle (dynamic imports included)', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (f: string, path: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        cycles.push([...path.slice(path.indexOf(f)), f].join(' → '));
        return;
      }
      state.set(f, 'open');
      for (const to of graph.get(f) ?? []) if (to.startsWith('cli/')) visit(to, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of cli) visit(f, []);
    expect(cycles).toEqual([]);
  });

  it("the domain's search port is types only (search may import it; it brings no code with it)", () => {
    const port = readFileSync(join(SRC, 'domain/memory/search-port.ts'), 'utf8');
    for (const line of port.split('\n').filter((l) => l.startsWith('import '))) expect(line).toMatch(/^import type /);
  });
});
