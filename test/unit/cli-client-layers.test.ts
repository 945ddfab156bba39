import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The import arrows of the CLI and the client (issue 16): commands share code through
 * cli/output, cli/input and cli/flows, never through a sibling command; the CLI's modules form no
 * cycle; the client imports nothing of the daemon, the server, the domain or the store.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** Relative imports of a file (static, re-exports and dynamic), as paths under src/ ending in .ts. */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)].map((m) => m[1] ?? m[2]!);
  return specs.filter((s) => s.startsWith('.')).map((s) => relative(SRC, resolve(dirname(file), s)).replace(/\.js$/, '.ts'));
}

const rel = (f: string) => relative(SRC, f);
const cli = files(join(SRC, 'cli')).map(rel);
const client = files(join(SRC, 'client')).map(rel);
const graph = new Map([...cli, ...client].map((f) => [f, imports(join(SRC, f))]));
const commandOf = (f: string) => /^cli\/commands\/([^/]+)\//.exec(f)?.[1];

describe('CLI and client layers', () => {
  it('no command imports from another command', () => {
    const crossing = cli.flatMap((f) => graph.get(f)!.filter((to) => commandOf(f) && commandOf(to) && commandOf(to) !== commandOf(f)).map((to) => `${f} → ${to}`));
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

  it('the client imports nothing of the daemon, server, domain, store or CLI', () => {
    const upward = client.flatMap((f) => graph.get(f)!.filter((to) => /^(daemon|server|domain|store|cli)\//.test(to)).map((to) => `${f} → ${to}`));
    expect(upward).toEqual([]);
  });

  it('the CLI imports no server, store or domain module (but the time code moving to src/time)', () => {
    const TIME = /^domain\/(calendar\/zone|tempo\/[\w-]+)\.ts$/;
    const upward = cli.flatMap((f) => graph.get(f)!.filter((to) => /^(server|store|domain)\//.test(to) && !TIME.test(to)).map((to) => `${f} → ${to}`));
    expect(upward).toEqual([]);
  });
});
