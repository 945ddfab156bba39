import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The rule at the top of src/search/index.ts: the domain reaches search only through the ports it
// owns; search imports nothing above it and, of the domain, only those ports.
const SRC = resolve(import.meta.dirname, '..', '..', '..', 'src');
const PORT = 'domain/memory/search-port.ts';
const ABOVE_SEARCH = ['domain/', 'server/', 'daemon/', 'client/', 'cli/', 'ical/'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/** Every relative module a file imports or names (static, dynamic, `new URL`), as a path under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|new URL\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    out.push(relative(SRC, resolve(dirname(file), m[1]!)).replace(/\.js$/, '.ts'));
  }
  return out;
}

describe('search as infrastructure', () => {
  it('no domain file imports src/search', () => {
    const bad = tsFiles(join(SRC, 'domain')).flatMap((f) => importsOf(f).filter((i) => i.startsWith('search/')).map((i) => `${relative(SRC, f)} → ${i}`));
    expect(bad).toEqual([]);
  });

  it('src/search imports of the domain only its search port, and nothing else above it', () => {
    const bad = tsFiles(join(SRC, 'search')).flatMap((f) =>
      importsOf(f)
        .filter((i) => i !== PORT && ABOVE_SEARCH.some((layer) => i.startsWith(layer)))
        .map((i) => `${relative(SRC, f)} → ${i}`),
    );
    expect(bad).toEqual([]);
  });

  it('the port is types only', () => {
    const port = readFileSync(join(SRC, PORT), 'utf8');
    for (const line of port.split('\n').filter((l) => l.startsWith('import '))) expect(line).toMatch(/^import type /);
    expect(port).not.toMatch(/^export (const|function|class)/m);
  });
});
