import { describe, expect, it } from 'vitest';
import { CALENDAR_LIMITS } from '../../src/contracts/calendar-limits.js';
import { useDaemon } from '../helpers/daemon.js';

// Issue 14 item 3: no recurrence rule, RDATE list or listing can hang, crash or stall the daemon.
const d = useDaemon({ env: { KAIROS_RATE_LIMIT: '0' } });

/** A call that fails after 15 s instead of waiting forever on a daemon stuck in a loop. */
const call = (method: string, path: string, body?: unknown) => d.api(method, path, { ...(body === undefined ? {} : { body }), timeoutMs: 15_000 });

const create = (body: Record<string, unknown>) => call('POST', '/calendar/create', { title: 'Limits', timezone: 'UTC', ...body });
const list = (start: string, end: string) => call('GET', `/calendar/events?start=${encodeURIComponent(start)}&end=${encodeURIComponent(end)}`);
const range = (n: number) => Array.from({ length: n }, (_, i) => i).join(',');
const limitsOf = (json: any) => (json?.error?.details ?? []).map((x: any) => x.limit).filter(Boolean);

describe('rules that hung or crashed the daemon', () => {
  it('FREQ=DAILY;BYMONTHDAY=-1,-2 is created and lists the last two days of each month (it hung the daemon for good)', async () => {
    const r = await create({ scheduled_for: '2031-01-30T09:00:00Z', rrule: 'FREQ=DAILY;BYMONTHDAY=-1,-2;COUNT=5' });
    expect(r.status, r.text).toBe(201);
    const l = await list('2031-01-01T00:00:00Z', '2031-06-01T00:00:00Z');
    expect(l.status, l.text).toBe(200);
    expect(l.json.events.filter((e: any) => e.occurrence_of === r.json.uid).map((e: any) => e.scheduled_for.slice(0, 10))).toEqual([
      '2031-01-30',
      '2031-01-31',
      '2031-02-27',
      '2031-02-28',
      '2031-03-30',
    ]);
    expect((await call('DELETE', `/calendar/remove?uid=${r.json.uid}`)).status).toBe(200);
  });

  it('FREQ=HOURLY;BYMINUTE=0..59;BYSECOND=0..59 (one a second) is refused with 422 naming max_occurrences_per_day', async () => {
    const r = await create({ scheduled_for: '2031-01-01T00:00:00Z', rrule: `FREQ=HOURLY;BYMINUTE=${range(60)};BYSECOND=${range(60)}` });
    expect(r.status, r.text).toBe(422);
    expect(r.json.error.code).toBe('validation_failed');
    expect(r.text).toContain('max_occurrences_per_day');
    // Denser than 24 a day in any other way too.
    const half = await create({ scheduled_for: '2031-01-01T00:00:00Z', rrule: 'FREQ=HOURLY;BYMINUTE=0,30' });
    expect(half.status, half.text).toBe(422);
    expect(half.text).toContain('max_occurrences_per_day');
    expect((await create({ scheduled_for: '2031-01-01T00:00:00Z', rrule: 'FREQ=HOURLY;COUNT=48' })).status).toBe(201);
  });

  // Each of these made ical.js throw (500) or loop; each now answers 422 naming the rule, or works.
  it.each([
    ['FREQ=MONTHLY;BYYEARDAY=100', /BYYEARDAY cannot be used with FREQ=MONTHLY/],
    ['FREQ=WEEKLY;BYMONTHDAY=1', /BYMONTHDAY cannot be used with FREQ=WEEKLY/],
    ['FREQ=DAILY;BYWEEKNO=20', /BYWEEKNO is only allowed with FREQ=YEARLY/],
    ['FREQ=MONTHLY;BYDAY=6MO', /at most 5/],
    ['FREQ=DAILY;BYDAY=1MO', /needs FREQ=MONTHLY or FREQ=YEARLY/],
    ['FREQ=MONTHLY;BYDAY=1MO;BYMONTHDAY=15', /gives no occurrence/],
    ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', /gives no occurrence/],
    ['FREQ=DAILY;BYSETPOS=1', /BYSETPOS needs another/],
  ])('%s → 422 naming the rule', async (rrule, message) => {
    const r = await create({ scheduled_for: '2031-01-05T09:00:00Z', rrule });
    expect(r.status, r.text).toBe(422);
    expect(r.json.error.code).toBe('validation_failed');
    expect(r.json.error.details.some((x: any) => x.path === 'rrule')).toBe(true);
    expect(r.json.error.message).toMatch(message);
  });

  it('HOURLY with BYYEARDAY (ical.js threw, 500) is an RFC 5545 limit and expands', async () => {
    const r = await create({ scheduled_for: '2031-01-01T00:00:00Z', rrule: 'FREQ=HOURLY;INTERVAL=12;BYYEARDAY=1,-1;COUNT=4' });
    expect(r.status, r.text).toBe(201);
    const l = await list('2031-01-01T00:00:00Z', '2032-01-01T00:00:00Z');
    expect(l.json.events.filter((e: any) => e.occurrence_of === r.json.uid).map((e: any) => e.scheduled_for)).toEqual([
      '2031-01-01T00:00:00.000Z',
      '2031-01-01T12:00:00.000Z',
      '2031-12-31T00:00:00.000Z',
      '2031-12-31T12:00:00.000Z',
    ]);
  });

  it('refuses RDATE lists over max_rdates and more than max_occurrences_per_day RDATEs on one day', async () => {
    const many = Array.from({ length: CALENDAR_LIMITS.max_rdates + 1 }, (_, i) => new Date(Date.UTC(2031, 0, 1) + i * 86_400_000).toISOString());
    const r = await create({ scheduled_for: '2031-01-01T09:00:00Z', rdates: many });
    expect(r.status).toBe(422);
    expect(r.text).toContain('max_rdates');
    const sameDay = Array.from({ length: 25 }, (_, i) => new Date(Date.UTC(2031, 0, 2, 0, i * 2)).toISOString());
    const s = await create({ scheduled_for: '2031-01-01T09:00:00Z', rdates: sameDay });
    expect(s.status, s.text).toBe(422);
    expect(limitsOf(s.json)).toContain('max_occurrences_per_day');
  });
});

describe('the expansion step cap (issue 18: a wall-clock budget made answers depend on machine load)', () => {
  it('a listing whose series need more than max_expansion_steps gets 422 naming the limit, the same on every try', async () => {
    // A daily series from 1901: listing 2033 needs its expansion from DTSTART, ~132 years of days.
    const old = await create({ scheduled_for: '1901-01-01T09:00:00Z', rrule: 'FREQ=DAILY' });
    expect(old.status, old.text).toBe(201);
    for (let i = 0; i < 3; i++) {
      const r = await list('2033-06-01T00:00:00Z', '2033-07-01T00:00:00Z');
      expect(r.status, r.text).toBe(422);
      expect(r.json.error.details).toEqual([expect.objectContaining({ limit: 'max_expansion_steps', max: CALENDAR_LIMITS.max_expansion_steps })]);
    }
    expect((await call('DELETE', `/calendar/remove?uid=${old.json.uid}`)).status).toBe(200);
    expect((await list('2033-06-01T00:00:00Z', '2033-07-01T00:00:00Z')).status).toBe(200);
  });
});

describe('listing and conflict limits', () => {
  it('refuses a range over max_listing_days with 422 naming it', async () => {
    const r = await list('2031-01-01T00:00:00Z', '2032-02-01T00:00:00Z');
    expect(r.status).toBe(422);
    expect(limitsOf(r.json)).toEqual(['max_listing_days']);
  });

  it('refuses a listing over max_listing_occurrences (two hourly series over a year) with 422 naming it', async () => {
    for (const h of ['00', '00'])
      expect((await create({ scheduled_for: `2033-01-01T${h}:00:00Z`, rrule: 'FREQ=HOURLY', duration_minutes: 10 })).status).toBe(201);
    const r = await list('2033-01-01T00:00:00Z', '2034-01-01T00:00:00Z');
    expect(r.status, r.text).toBe(422);
    expect(limitsOf(r.json)).toEqual(['max_listing_occurrences']);
    // A month is fine: 2 × 24 × 31 items.
    const month = await list('2033-01-01T00:00:00Z', '2033-02-01T00:00:00Z');
    expect(month.status, month.text).toBe(200);
    expect(month.json.events.length).toBe(2 * 24 * 31);
  });

  it('a new hourly series over a year of hourly events gets its conflicts without a pairwise compare', async () => {
    const r = await create({ scheduled_for: '2033-01-01T00:30:00Z', rrule: 'FREQ=HOURLY', duration_minutes: 10 });
    expect(r.status, r.text).toBe(201);
    // Its occurrences (:30–:40) never meet the others' (:00–:10).
    expect(r.json.conflicts).toEqual([]);
    const o = await create({ scheduled_for: '2033-01-01T00:05:00Z', rrule: 'FREQ=DAILY;COUNT=3', duration_minutes: 10 });
    expect(o.json.conflicts.length).toBe(2);
  });
});

describe('the event loop', () => {
  it('/health keeps answering while hostile rules and listings are sent', async () => {
    let worst = 0;
    let probes = 0;
    let stop = false;
    const probe = (async () => {
      while (!stop) {
        const t = performance.now();
        const h = await call('GET', '/health');
        expect(h.status).toBe(200);
        worst = Math.max(worst, performance.now() - t);
        probes++;
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const hostile = [
      () => create({ scheduled_for: '2031-01-01T00:00:00Z', rrule: `FREQ=HOURLY;BYMINUTE=${range(60)};BYSECOND=${range(60)}` }),
      () => create({ scheduled_for: '2031-01-30T09:00:00Z', rrule: 'FREQ=DAILY;BYMONTHDAY=-1,-2;COUNT=5' }),
      () => create({ scheduled_for: '2031-01-01T09:00:00Z', rrule: 'FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30' }),
      () => create({ scheduled_for: '2031-01-01T09:00:00Z', rrule: 'FREQ=MONTHLY;BYDAY=1MO;BYMONTHDAY=15' }),
      () => create({ scheduled_for: '2031-01-01T09:00:00Z', rrule: 'FREQ=HOURLY;COUNT=999999' }),
      () =>
        create({
          scheduled_for: '2031-01-01T09:00:00Z',
          rdates: Array.from({ length: 5000 }, (_, i) => new Date(Date.UTC(2031, 0, 1, 9) + i * 3_600_000).toISOString()),
        }),
      () => list('2033-01-01T00:00:00Z', '2034-01-01T00:00:00Z'),
      () => list('2031-01-01T00:00:00Z', '2032-01-01T00:00:00Z'),
    ];
    for (let round = 0; round < 2; round++)
      for (const [i, h] of hostile.entries()) {
        const t = performance.now();
        const r = await h();
        expect(r.status).toBeLessThan(500);
        if (process.env.KAIROS_TRACE_LIMITS) console.log(round, i, r.status, Math.round(performance.now() - t), 'ms', worst.toFixed(0));
      }
    stop = true;
    await probe;
    console.log(`/health worst round trip during hostile requests: ${worst.toFixed(0)} ms over ${probes} probes`);
    expect(probes).toBeGreaterThan(5);
    // The bound the issue asks for is 100 ms of event-loop hold; a round trip on a shared, loaded
    // test machine adds scheduling noise, so the assertion is generous (it was 61 s before).
    expect(worst).toBeLessThan(1_500);
  });
});
