import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/daemon.js';
import { useApp } from '../helpers/in-process.js';
import { everyPage } from '../helpers/pages.js';

const d = useApp();

// Events with descriptions of 99,990 two-byte characters: about 200 kB of JSON each. 40 one-off
// events and a series of 12 occurrences make about 10 MB, within the listing's caps (10,000
// items, 16 MiB as it counts them) but more than two pages of PAGE_BYTES.
const LONG = 'é'.repeat(99_990);
const ONE_OFFS = 40;
const OCCURRENCES = 12;
const RANGE = 'start=2031-01-01T00:00:00Z&end=2031-04-01T00:00:00Z';

const create = async (body: Record<string, unknown>) => {
  const r = await d.api('POST', '/calendar/create', { body: { duration_minutes: 30, timezone: 'UTC', description: LONG, ...body } });
  expect(r.status, r.text.slice(0, 300)).toBe(201);
  return r.json.uid as string;
};

let series: string;
beforeAll(async () => {
  for (let i = 0; i < ONE_OFFS; i++) await create({ title: `one-off ${i}`, scheduled_for: new Date(Date.UTC(2031, 0, 1 + i, 9)).toISOString() });
  series = await create({ title: 'weekly', scheduled_for: '2031-01-02T09:00:00Z', rrule: `FREQ=WEEKLY;COUNT=${OCCURRENCES}` });
  // An override moved onto another event's start: two items share a start, in order by uid then original start.
  const moved = await d.api('PATCH', '/calendar/edit', {
    body: { uid: series, recurrence_id: '2031-01-16T09:00:00.000Z', updates: { scheduled_for: '2031-01-17T09:00:00Z' } },
  });
  expect(moved.status, moved.text.slice(0, 300)).toBe(200);
}, 120_000);

type Item = { uid: string; scheduled_for: string; recurrence_id?: string; description?: string };

/** Every page of a listing from the first, each checked against the budget. */
async function allPages(query: string): Promise<{ pages: number; items: Item[] }> {
  const all = await everyPage<Item>(d, `/calendar/events?${query}`, 'events', ONE_OFFS + OCCURRENCES);
  for (const e of all.items) expect(e.description).toBe(LONG);
  return all;
}

const key = (e: Item) => `${e.scheduled_for} ${e.uid} ${e.recurrence_id ?? ''}`;

describe('GET /calendar/events in pages of PAGE_BYTES', () => {
  it('expanded: every occurrence once, in listing order, across pages within the budget', async () => {
    const { pages, items } = await allPages(RANGE);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(items).toHaveLength(ONE_OFFS + OCCURRENCES);
    expect(new Set(items.map(key)).size).toBe(items.length);
    expect(items.map((e) => e.scheduled_for)).toEqual(items.map((e) => e.scheduled_for).sort());
    expect(items.filter((e) => e.uid === series)).toHaveLength(OCCURRENCES);
  });

  it('as stored (expand=false): every event once across pages within the budget', async () => {
    const { pages, items } = await allPages('expand=false');
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(items).toHaveLength(ONE_OFFS + 1);
  });

  it('a short listing is one page whose next_cursor is null', async () => {
    const r = await d.api('GET', '/calendar/events?start=2031-01-01T00:00:00Z&end=2031-01-02T00:00:00Z');
    expect(r.json.events).toHaveLength(1);
    expect(r.json.next_cursor).toBeNull();
  });

  it('refuses a cursor it did not make with 422', async () => {
    const r = await d.api('GET', `/calendar/events?${RANGE}&cursor=bm90LWEtY3Vyc29y`);
    expect(r.status, r.text).toBe(422);
    expect(r.json.error.details[0].path).toBe('cursor');
  });
});

describe('the CLI follows next_cursor', () => {
  it('kairos cal list --json prints the whole range in one document', async () => {
    const r = await runCli(['cal', 'list', '--from', '2031-01-01', '--to', '2031-04-01', '--json'], {
      env: { KAIROS_HOME: d.home, KAIROS_URL: d.base, KAIROS_API_KEY: d.key },
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.next_cursor).toBeNull();
    expect(body.events).toHaveLength(ONE_OFFS + OCCURRENCES);
  });
});
