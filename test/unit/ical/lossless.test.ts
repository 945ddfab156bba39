import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { prepareImport } from '../../../src/domain/calendar/import-check.js';
import { writeBackIcs } from '../../../src/domain/calendar/kept-source.js';
import { parseIcs } from '../../../src/ical/import.js';
import { berlinSeries, RICH_UID, richEvent, SERIES_UID, unfolded } from '../../helpers/rich-events.js';
import { storedEvent } from '../../helpers/stored-event.js';

const NOW = new Date('2031-05-01T12:00:00Z');

/** The event a source reads as, stored; `edit` is what the user changed. */
function roundTrip(source: string, uid: string, edit: Record<string, unknown>): string {
  const base = prepareImport(source, 'UTC', parseIcs).checked[0]!.core;
  const current = storedEvent({ ...base, ...edit, uid, source: 'caldav', version: 2 } as never);
  return writeBackIcs(current, uid, NOW, { uid, user_id: 'usr_1', ics: source, base });
}

const comps = (ics: string) => new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent');
const STAMPS = /^(SUMMARY|SEQUENCE|DTSTAMP|LAST-MODIFIED)[;:]/;

describe('an edited event written back into its source', () => {
  it('a title edit changes SUMMARY, SEQUENCE, DTSTAMP and LAST-MODIFIED; every other line stays as written, folding included', () => {
    const source = richEvent();
    const out = roundTrip(source, RICH_UID, { title: 'Budget review (moved agenda)' });
    const kept = source.split('\r\n').filter((l, i, all) => !STAMPS.test(l) && !(l.startsWith(' ') && STAMPS.test(all[i - 1] ?? '')));
    for (const l of kept) expect(out.split('\r\n')).toContain(l);
    expect(out).toContain('SUMMARY:Budget review (moved agenda)\r\n');
    expect(out).toContain('SEQUENCE:4\r\n');
    expect(out).toContain('DTSTAMP:20310501T120000Z\r\n');
    expect(out).toContain('LAST-MODIFIED:20310501T120000Z\r\n');
    expect(out).toContain('CREATED:20240501T120000Z\r\n');
    expect(out).toContain('CATEGORIES:Work,Budget\r\n');
    const [ev] = comps(out);
    expect(ev!.getAllProperties('attendee')).toHaveLength(2);
    expect(ev!.getFirstSubcomponent('valarm')?.getFirstPropertyValue('trigger')?.toString()).toBe('-PT15M');
  });

  it('nothing changed: the source as it was', () => {
    const source = richEvent();
    expect(roundTrip(source, RICH_UID, {})).toBe(source);
  });

  it("a new tag replaces the first category and keeps the others; a time change rewrites only the event's times", () => {
    const out = roundTrip(richEvent(), RICH_UID, { tag: 'Finance', scheduled_for: '2031-06-10T15:00:00.000Z' });
    expect(out).toContain('CATEGORIES:Finance,Budget\r\n');
    expect(unfolded(out).filter((l) => /^DT(START|END)/.test(l))).toEqual(['DTSTART:20310610T150000Z', 'DTEND:20310610T160000Z']);
    expect(out).toContain('PRIORITY:2\r\n');
  });

  it('a series edit keeps the EXDATE, the alarm and each override as its own: no LOCATION where it had none', () => {
    const source = berlinSeries();
    const out = roundTrip(source, SERIES_UID, { title: 'Weekly sync (renamed)' });
    const [master, moved, long] = comps(out);
    expect(master!.getFirstPropertyValue('summary')).toBe('Weekly sync (renamed)');
    expect(unfolded(out)).toContain('EXDATE;TZID=Europe/Berlin:20310616T090000');
    expect(master!.getFirstSubcomponent('valarm')).toBeTruthy();
    // The moved instance showed the series' title: it follows the rename; its own room stays.
    expect(moved!.getFirstPropertyValue('summary')).toBe('Weekly sync (renamed)');
    expect(moved!.getFirstPropertyValue('location')).toBe('Room 9');
    // The long instance had a title and no location of its own: both stay so.
    expect(long!.getFirstPropertyValue('summary')).toBe('Weekly sync (long)');
    expect(long!.hasProperty('location')).toBe(false);
  });

  it('an override without LOCATION is read without the series location', () => {
    const core = prepareImport(berlinSeries(), 'UTC', parseIcs).checked[0]!.core;
    expect(core.location).toBe('Room 1');
    const long = core.overrides!.find((o) => o.recurrence_id === '2031-06-23T07:00:00.000Z');
    expect(long).toMatchObject({ location: '' });
  });

  it('an occurrence edited in kairos becomes a changed override; a removed one leaves with its component', () => {
    const base = prepareImport(berlinSeries(), 'UTC', parseIcs).checked[0]!.core;
    const overrides = base
      .overrides!.filter((o) => o.recurrence_id !== '2031-06-23T07:00:00.000Z')
      .map((o) => (o.recurrence_id === '2031-06-09T07:00:00.000Z' ? { ...o, title: 'Moved and renamed' } : o));
    const out = roundTrip(berlinSeries(), SERIES_UID, { overrides });
    const all = comps(out);
    expect(all).toHaveLength(2);
    expect(all[1]!.getFirstPropertyValue('summary')).toBe('Moved and renamed');
    expect(all[1]!.getFirstPropertyValue('location')).toBe('Room 9');
    expect(all[1]!.getFirstPropertyValue('sequence')).toBe(1);
  });
});
