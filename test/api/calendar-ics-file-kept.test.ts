import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ICAL from 'ical.js';
import { afterAll, describe, expect, it } from 'vitest';
import { useApp } from '../helpers/in-process.js';
import { berlinSeries, icsApi, RICH_UID, richEvent, SERIES_UID, unfolded } from '../helpers/rich-events.js';
import { describeShared, HAS_SHARED, SHARED } from '../helpers/shared.js';
import { HAS_KHAL_VDIRSYNCER, occurrencesOfFileByKhal } from '../helpers/vdirsyncer-khal.js';

/**
 * A calendar file (an invitation and a series in a named zone, with EXDATE and overrides)
 * imported, edited in kairos (a title, an occurrence's time) and exported: the export is the
 * file's own text with the edits written in. A file line that is not valid RFC 5545 makes its
 * event written from its fields instead, so every export passes a strict validator.
 */
const a = useApp();
const dir = mkdtempSync(join(tmpdir(), 'kairos-kept-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CRLF = '\r\n';
/** The components of a calendar text, between its head and END:VCALENDAR. */
const body = (ics: string) => ics.slice(ics.search(/^BEGIN:V(?:TIMEZONE|EVENT)/m), ics.lastIndexOf('END:VCALENDAR'));
const FILE = `BEGIN:VCALENDAR${CRLF}VERSION:2.0${CRLF}PRODID:-//Other Corp//Other Calendar 9.1//EN${CRLF}${body(berlinSeries())}${body(richEvent())}END:VCALENDAR${CRLF}`;

const { importIcs, exported } = icsApi(a);
const edit = async (body: Record<string, unknown>) => {
  const r = await a.api('PATCH', '/calendar/edit', { body });
  expect(r.status, r.text).toBe(200);
};
const validate = (name: string, ics: string) => {
  const p = join(dir, name);
  writeFileSync(p, ics);
  try {
    return execFileSync(join(SHARED, 'tools/ics-validate'), [p], { encoding: 'utf8', env: { ...process.env, PYENV_VERSION: 'system' } });
  } catch (e) {
    const err = e as { stdout?: string };
    return err.stdout ?? String(e);
  }
};
const components = (ics: string, uid: string) =>
  new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent').filter((c) => c.getFirstPropertyValue('uid') === uid);

/**
 * Each content line of `part` (but those `except` names) is in `out` as written, folding
 * included; one with a physical line over 75 octets is there folded again (RFC 5545 §3.1).
 */
function expectKept(out: string, part: string, except?: RegExp): void {
  const lines = unfolded(out);
  for (const raw of part.split(/\r\n(?![ \t])/).filter(Boolean)) {
    const text = unfolded(raw)[0]!;
    if (except?.test(text)) continue;
    if (raw.split(CRLF).every((l) => Buffer.byteLength(l) <= 75)) expect(out, text).toContain(`${CRLF}${raw}${CRLF}`);
    else expect(lines, text).toContain(text);
  }
}

/** The file's lines an edit of the rich event's title and of the 06-09 occurrence's time may change. */
const EDITED = /^(SUMMARY:Budget review$|SEQUENCE|DTSTAMP|LAST-MODIFIED)|^(DTSTART|DTEND);TZID=Europe\/Berlin:20310609T11/;

describe('import → edit → export of a file keeps the file', () => {
  it('an unedited file is exported as its own components, byte for byte', async () => {
    expect(await importIcs(FILE)).toMatchObject({ imported: 2, errors: [] });
    const out = await exported();
    const parts = body(FILE).split(/(?=BEGIN:VEVENT\r\n)/);
    expect(parts.map((p) => p.slice(0, 16))).toEqual([
      'BEGIN:VTIMEZONE\r',
      'BEGIN:VEVENT\r\nUI',
      'BEGIN:VEVENT\r\nUI',
      'BEGIN:VEVENT\r\nUI',
      'BEGIN:VEVENT\r\nUI',
    ]);
    for (const part of parts.slice(1)) expectKept(out, part);
  });

  it('a title and an occurrence time edited: only those lines (and the stamps of their components) change', async () => {
    await edit({ uid: RICH_UID, updates: { title: 'Budget review (v2)' } });
    await edit({ uid: SERIES_UID, recurrence_id: '2031-06-09T07:00:00.000Z', updates: { scheduled_for: '2031-06-09T10:00:00.000Z' } });
    const out = await exported();
    const lines = unfolded(out);
    for (const part of body(FILE)
      .split(/(?=BEGIN:VEVENT\r\n)/)
      .slice(1))
      expectKept(out, part, EDITED);
    // The series itself was not edited: its component is the file's, byte for byte.
    const master = body(FILE).split(/(?=BEGIN:VEVENT\r\n)/)[1]!;
    expect(master).toMatch(/^BEGIN:VEVENT\r\nUID:series-1@other\.example\r\n[\s\S]*RRULE:/);
    expect(out).toContain(master);
    expect(lines).toContain('SUMMARY:Budget review (v2)');
    expect(lines).toContain('DTSTART;TZID=Europe/Berlin:20310609T120000');
    expect(lines).not.toContain('SUMMARY:Budget review');
    const rich = components(out, RICH_UID);
    expect(rich).toHaveLength(1);
    expect(rich[0]!.getFirstPropertyValue('sequence')).toBe(4);
    expect(rich[0]!.getFirstPropertyValue('created')?.toString()).toBe('2024-05-01T12:00:00Z');
    expect(rich[0]!.getAllProperties('attendee')).toHaveLength(2);
    expect(rich[0]!.getFirstProperty('categories')!.getValues()).toEqual(['Work', 'Budget']);
    const series = components(out, SERIES_UID);
    expect(series).toHaveLength(3);
    expect(series[0]!.getFirstPropertyValue('sequence')).toBe(1);
    expect(series[0]!.getFirstSubcomponent('valarm')).toBeTruthy();
    expect(series[2]!.hasProperty('location')).toBe(false);
    if (HAS_SHARED) expect(validate('edited.ics', out)).toMatch(/^1 passed, 0 failed/m);
    // Two exports of an unchanged calendar are the same bytes.
    expect(await exported()).toBe(out);
  });

  it('khal reads the export with the occurrences kairos lists', async (ctx) => {
    if (!HAS_KHAL_VDIRSYNCER) {
      console.warn('skipping the khal check: khal is not installed (apt-get install -y khal)');
      ctx.skip();
    }
    const listing = (await a.api('GET', '/calendar/events?start=2031-06-01T00:00:00Z&end=2031-07-15T00:00:00Z')).json.events;
    const mine = listing.map((e: any) => `${e.scheduled_for.slice(0, 16)} ${e.title}`).sort();
    expect(mine).toContain('2031-06-09T10:00 Weekly sync');
    expect(mine).not.toContain('2031-06-16T07:00 Weekly sync');
    expect(await occurrencesOfFileByKhal(await exported(), '2031-06-01', 44)).toEqual(mine);
  });
});

describeShared('a file line that is not valid RFC 5545', () => {
  it('makes its event written from its fields; the valid event beside it keeps its text; the export validates', async () => {
    const long = `X-VENDOR-NOTE:${'x'.repeat(90)}`;
    const bad = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Vendor//Tickets//EN',
      'BEGIN:VEVENT',
      'UID:ticket-1@vendor.example',
      'DTSTAMP:20250101T000000Z',
      'DTSTART:20310801T080000Z',
      'DURATION:PT2H',
      'SUMMARY:Train',
      'ATTENDEE:mailto:ann@other.example',
      long,
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      'DESCRIPTION:Leave',
      'TRIGGER:PT-2H',
      'END:VALARM',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:ticket-2@vendor.example',
      'DTSTAMP:20250101T000000Z',
      'DTSTART:20310802T080000Z',
      'DURATION:PT2H',
      'SUMMARY:Train back',
      'ATTENDEE:mailto:ann@other.example',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join(CRLF);
    expect(validate('bad-source.ics', bad)).toMatch(/1 failed/);
    expect(await importIcs(bad)).toMatchObject({ imported: 2, errors: [] });
    await edit({ uid: 'ticket-1@vendor.example', updates: { title: 'Train (moved)' } });
    const out = await exported();
    expect(validate('bad-export.ics', out)).toMatch(/^1 passed, 0 failed/m);
    const [one] = components(out, 'ticket-1@vendor.example');
    expect(one!.getFirstPropertyValue('summary')).toBe('Train (moved)');
    expect(one!.hasProperty('attendee')).toBe(false);
    expect(unfolded(out)).not.toContain(long);
    const [two] = components(out, 'ticket-2@vendor.example');
    expect(two!.getFirstPropertyValue('attendee')).toBe('mailto:ann@other.example');
  });
});
