import { describe, expect, it } from 'vitest';
import { useDaemon } from '../helpers/daemon.js';

/**
 * Issue 14, item 4: an imported event passes the same schema and limits as POST /calendar/create.
 * Before the fix a file with 150,000 RDATEs imported (200), and afterwards every listing and
 * create of that user answered 500 until the event was deleted by uid.
 */
const d = useDaemon();

const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const START = Date.UTC(2031, 0, 5, 9);

interface Ev {
  uid: string;
  /** The DTSTART line (default START in UTC). */
  start?: string;
  lines?: string[];
  summary?: string;
}
const vevent = (e: Ev) => [
  'BEGIN:VEVENT',
  `UID:${e.uid}`,
  'DTSTAMP:20310101T000000Z',
  e.start ?? `DTSTART:${stamp(START)}`,
  ...(e.lines ?? ['DURATION:PT1H']),
  `SUMMARY:${e.summary ?? e.uid}`,
  'END:VEVENT',
];
const calendar = (events: Ev[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//t//EN', ...events.flatMap(vevent), 'END:VCALENDAR', ''].join('\r\n');
/** `n` hourly instants after START, `perLine` to a line. */
const instants = (name: string, n: number, perLine = 100) => {
  const out: string[] = [];
  for (let i = 0; i < n; i += perLine) {
    const chunk = Array.from({ length: Math.min(perLine, n - i) }, (_, j) => stamp(START + (i + j + 1) * 3600_000));
    out.push(`${name}:${chunk.join(',')}`);
  }
  return out;
};
const importIcs = async (text: string) => {
  const r = await d.api('POST', '/calendar/import', { raw: text, headers: { 'content-type': 'text/calendar' } });
  expect(r.status, r.text).toBe(200);
  return r.json;
};

describe("an import obeys /calendar/create's limits, event by event", () => {
  it('150,000 RDATEs: that event is refused, the rest imports, and the calendar keeps answering', async () => {
    const text = calendar([{ uid: 'rdate-bomb', lines: ['DURATION:PT1H', ...instants('RDATE', 150_000)] }, { uid: 'fine-1' }]);
    expect(text.length).toBeGreaterThan(2_400_000);
    const r = await importIcs(text);
    expect(r.imported).toBe(1);
    expect(r.errors).toEqual([{ uid: 'rdate-bomb', line: 4, message: expect.stringMatching(/rdates.*5000/) }]);

    const list = await d.api('GET', '/calendar/events?start=2031-01-01T00:00:00Z&end=2031-02-01T00:00:00Z');
    expect(list.status, list.text).toBe(200);
    expect(list.json.events.map((e: any) => e.uid)).toEqual(['fine-1']);
    const created = await d.api('POST', '/calendar/create', { body: { title: 'After', scheduled_for: '2031-01-20T10:00:00Z', task_id: 't' } });
    expect(created.status, created.text).toBe(201);
  });

  it.each([
    ['a title over 1000 characters', { summary: 'T'.repeat(1001) }, /title/],
    ['a description over 100,000 characters', { lines: ['DURATION:PT1H', `DESCRIPTION:${'d'.repeat(100_001)}`] }, /description/],
    ['a location over 1000 characters', { lines: ['DURATION:PT1H', `LOCATION:${'l'.repeat(1001)}`] }, /location/],
    ['5001 EXDATEs', { lines: ['DURATION:PT1H', 'RRULE:FREQ=HOURLY;COUNT=6000', ...instants('EXDATE', 5001)] }, /exdates.*5000/],
    ['5001 RDATEs', { lines: ['DURATION:PT1H', ...instants('RDATE', 5001)] }, /rdates.*5000/],
    ['a duration over a year', { lines: ['DURATION:P367D'] }, /duration_minutes/],
    ['an RRULE create refuses', { lines: ['DURATION:PT1H', 'RRULE:FREQ=SECONDLY;COUNT=5'] }, /RRULE/i],
  ])('%s: that event is an error naming the field; the others import', async (_what, ev, message) => {
    const uid = `bad-${Math.random().toString(36).slice(2)}`;
    const r = await importIcs(calendar([{ uid: `${uid}-before` }, { uid, ...ev }, { uid: `${uid}-after` }]));
    expect(r.errors).toEqual([{ uid, line: 11, message: expect.stringMatching(message) }]);
    expect(r.imported).toBe(2);
    const stored = await d.api('GET', '/calendar/events?expand=false');
    expect(stored.json.events.map((e: any) => e.uid)).not.toContain(uid);
  });

  it('overridden instances obey the same limits: a long title in one is an error for its series', async () => {
    const override = (i: number, summary: string) => ({
      uid: 'ovr',
      start: `DTSTART:${stamp(START + i * 86_400_000 + 3600_000)}`,
      lines: [`RECURRENCE-ID:${stamp(START + i * 86_400_000)}`, 'DURATION:PT1H'],
      summary,
    });
    const r = await importIcs(
      calendar([{ uid: 'ovr', lines: ['DURATION:PT1H', 'RRULE:FREQ=DAILY;COUNT=5'] }, override(1, 'moved'), override(2, 'X'.repeat(1001))]),
    );
    expect(r.errors).toEqual([{ uid: 'ovr', line: 4, message: expect.stringMatching(/overrides\.\d+\.title/) }]);
    expect(r.imported).toBe(0);
  });

  it('an event create accepts imports unchanged: zero-length, all-day, recurring with RDATE and EXDATE', async () => {
    const r = await importIcs(
      calendar([
        { uid: 'instant', lines: [] },
        { uid: 'allday', start: 'DTSTART;VALUE=DATE:20310301', lines: ['DTEND;VALUE=DATE:20310303'] },
        {
          uid: 'series',
          lines: ['DURATION:PT30M', 'RRULE:FREQ=WEEKLY;COUNT=4', `EXDATE:${stamp(START + 7 * 86_400_000)}`, `RDATE:${stamp(START + 2 * 86_400_000)}`],
        },
      ]),
    );
    expect(r.errors).toEqual([]);
    expect(r.imported).toBe(3);
    const all = (await d.api('GET', '/calendar/events?expand=false')).json.events as any[];
    expect(all.find((e) => e.uid === 'instant')).toMatchObject({ duration_minutes: 0, scheduled_for: '2031-01-05T09:00:00.000Z' });
    expect(all.find((e) => e.uid === 'allday')).toMatchObject({ all_day: true, duration_minutes: 2880 });
    expect(all.find((e) => e.uid === 'series')).toMatchObject({
      rrule: 'FREQ=WEEKLY;COUNT=4',
      exdates: ['2031-01-12T09:00:00.000Z'],
      rdates: ['2031-01-07T09:00:00.000Z'],
    });
  });
});
