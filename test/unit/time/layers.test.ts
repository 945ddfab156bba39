import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * src/time is the bottom layer (issue 16): contracts, iCalendar, the domain and the CLI import it,
 * it imports none of them, and what it replaced may not be reached around it.
 */
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? sourceFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []));
}

/** `[file, imported module]` for every relative import (static, type-only or dynamic), both as paths under src/. */
function importsUnder(folder: string): [string, string][] {
  const out: [string, string][] = [];
  for (const file of sourceFiles(join(SRC, folder))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g)) {
      out.push([relative(SRC, file), relative(SRC, resolve(dirname(file), m[1]!))]);
    }
  }
  return out;
}

const outside = (pairs: [string, string][], allowed: (target: string) => boolean) => pairs.filter(([, target]) => !allowed(target)).map(([file, target]) => `${file} → ${target}`);

describe('src/time at the bottom', () => {
  it('src/time imports nothing of src/ outside itself', () => {
    expect(outside(importsUnder('time'), (t) => t.startsWith('time/'))).toEqual([]);
  });

  it('contracts import nothing from the domain', () => {
    expect(outside(importsUnder('contracts'), (t) => !t.startsWith('domain/'))).toEqual([]);
  });

  it('iCalendar imports only src/time, contracts and itself (and the version string)', () => {
    expect(outside(importsUnder('ical'), (t) => /^(time|contracts|ical)\//.test(t) || t === 'version.js')).toEqual([]);
  });

  it('the CLI reads time from src/time, not from the calendar or tempo domain', () => {
    expect(outside(importsUnder('cli'), (t) => !/^domain\/(calendar|tempo)\//.test(t))).toEqual([]);
  });
});
