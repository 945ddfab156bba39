import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.js';

/**
 * The test tiers of vitest.config.ts (docs/architecture.md, "Tests"): every test file runs in
 * exactly one tier, so `npm test` still runs them all, and no unit test reaches for dist/, which
 * the unit tier never builds.
 */

const ROOT = resolve(import.meta.dirname, '..', '..');
const files = (readdirSync(join(ROOT, 'test'), { recursive: true }) as string[])
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => join('test', f).split('\\').join('/'));
const tiers = (config.test?.projects ?? []).map((p) => {
  const t = (p as { test: { name: string; include: string[] } }).test;
  // Each include is `test/<folder>/**/*.test.ts`: a folder prefix.
  return { name: t.name, folders: t.include.map((g) => g.replace(/\*\*\/\*\.test\.ts$/, '')) };
});

describe('test tiers', () => {
  it('put every test file in exactly one tier', () => {
    expect(files.length).toBeGreaterThan(100);
    for (const f of files) expect([f, tiers.filter((t) => t.folders.some((d) => f.startsWith(d))).map((t) => t.name)]).toEqual([f, [expect.any(String)]]);
  });

  it('keep dist/ out of the unit tier', () => {
    const unit = tiers.find((t) => t.name === 'unit')!;
    const reaching = files.filter((f) => unit.folders.some((d) => f.startsWith(d)) && /['"/]dist['"/]/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(reaching.map((f) => relative('test', f))).toEqual([]);
  });
});
