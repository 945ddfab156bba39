import { beforeAll, describe, expect, it } from 'vitest';
import { PAGE_BYTES } from '../../src/contracts/page.js';
import { runCli } from '../helpers/daemon.js';
import { useApp } from '../helpers/in-process.js';

const d = useApp();

// Long traces of two-byte characters: 48 of them are about 9.6 MB of JSON, more than two pages
// of PAGE_BYTES, and a page counted in characters instead of bytes would be twice too large.
const COUNT = 48;
const LONG = 'é'.repeat(99_990);
const uids = Array.from({ length: COUNT }, (_, i) => `long-${String(i).padStart(2, '0')}`);

const qs = (params: Record<string, string | number>) => '?' + new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

/** Every page of a paged GET from the first, with its size in bytes. */
async function allPages(path: string, params: Record<string, string | number>) {
  const pages: { bytes: number; json: any }[] = [];
  let cursor: string | undefined;
  do {
    const r = await d.api('GET', path + qs({ ...params, ...(cursor ? { cursor } : {}) }));
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    pages.push({ bytes: Buffer.byteLength(r.text), json: r.json });
    cursor = r.json.next_cursor ?? undefined;
    expect(pages.length).toBeLessThan(COUNT + 2);
  } while (cursor);
  return pages;
}

/** The uids of traces whose content came back whole. */
const wholeUids = (traces: { uid: string; content: string }[]) =>
  traces.map((t) => {
    expect(t.content).toBe(LONG + t.uid);
    return t.uid;
  });

/** Every trace exactly once, in several pages, each within the budget. */
function expectBounded(pages: { bytes: number }[], seen: string[]) {
  expect(pages.length).toBeGreaterThanOrEqual(3);
  for (const p of pages) expect(p.bytes).toBeLessThanOrEqual(PAGE_BYTES);
  expect(seen).toHaveLength(COUNT);
  expect([...seen].sort()).toEqual(uids);
}

beforeAll(async () => {
  // Four traces a push keeps each body under the 1 MiB a push accepts.
  for (let i = 0; i < COUNT; i += 4) {
    const traces = uids.slice(i, i + 4).map((uid, j) => ({
      uid,
      type: 'observation',
      task_id: `task-${(i + j) % 3}`,
      content: LONG + uid,
      timestamp: new Date(Date.UTC(2031, 0, 1, 0, i + j)).toISOString(),
    }));
    const r = await d.api('POST', '/memory/push', { body: { traces } });
    expect(r.status, r.text).toBe(201);
  }
}, 120_000);

describe('a page ends at its byte budget, whatever its limit', () => {
  it('pull', async () => {
    const pages = await allPages('/memory/pull', { limit: 1000 });
    expectBounded(
      pages,
      pages.flatMap((p) => wholeUids(p.json.traces)),
    );
  });

  it.each([
    ['full', {}],
    ['full, grouped by task', { group_by: 'task' }],
    ['linked', {}],
  ])('export %s', async (_name, extra) => {
    const format = _name.split(',')[0]!;
    const pages = await allPages('/context/export', { user_id: d.userId, export_format: format, limit: 1000, ...extra });
    const items = (b: any): { uid: string; content: string }[] => (b.groups ? b.groups.flatMap((g: any) => g.results) : b.results);
    const seen = pages.flatMap((p) => wholeUids(items(p.json)));
    expectBounded(pages, seen);
  });

  it('export diff', async () => {
    const pages = await allPages('/context/export', { user_id: d.userId, export_format: 'diff', since: '2000-01-01T00:00:00Z', limit: 1000 });
    expectBounded(
      pages,
      pages.flatMap((p) => p.json.results.added.map((t: { uid: string }) => t.uid)),
    );
  });

  it('a summary page of the same traces stays whole: its items are one short line each', async () => {
    const r = await d.api('GET', '/context/export' + qs({ user_id: d.userId, export_format: 'summary', limit: 1000 }));
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.json.results).toHaveLength(COUNT);
    expect(r.json.next_cursor).toBeNull();
  });
});

describe('the CLI follows next_cursor across cut pages into one JSON document', () => {
  it.each([
    ['trace pull', ['trace', 'pull', '--all', '--limit', '1000', '--json'], (b: any) => b.traces],
    ['export full', ['export', '--format', 'full', '--all', '--limit', '1000', '--json'], (b: any) => b.results],
  ])('%s --all --json', async (_name, args, items) => {
    const r = await runCli(args, { env: { KAIROS_HOME: d.home, KAIROS_URL: d.base, KAIROS_API_KEY: d.key }, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.next_cursor).toBeNull();
    expect(
      items(body)
        .map((t: { uid: string }) => t.uid)
        .sort(),
    ).toEqual(uids);
  });
});
