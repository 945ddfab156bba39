import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { useApp } from '../helpers/in-process.js';
import { berlinSeries, icsApi, RICH_UID, richEvent, SERIES_UID, unfolded } from '../helpers/rich-events.js';

/**
 * A calendar file imported, edited in kairos and exported: the export is the file's own text with
 * the edit written in (what kairos does not model stays), and an overridden instance keeps only
 * its own properties.
 */
const a = useApp();
const { importIcs, exported } = icsApi(a);
const stored = async (uid: string) => (await a.api('GET', '/calendar/events?expand=false')).json.events.find((e: any) => e.uid === uid);
const vevents = (ics: string) => new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent');

describe('import → edit → export keeps the file', () => {
  it('an invitation: organizer, attendees, alarm, both categories, X- properties and CREATED are exported as imported', async () => {
    expect(await importIcs(richEvent())).toMatchObject({ imported: 1, errors: [] });
    const edit = await a.api('PATCH', '/calendar/edit', { body: { uid: RICH_UID, updates: { title: 'Budget review (v2)' } } });
    expect(edit.status, edit.text).toBe(200);
    const out = await exported();
    const lines = unfolded(out);
    for (const l of unfolded(richEvent()).filter((l) => /^(ORGANIZER|ATTENDEE|CATEGORIES|CLASS|TRANSP|PRIORITY|URL|X-|CREATED|TRIGGER)/.test(l)))
      expect(lines, l).toContain(l);
    const ev = vevents(out).find((c) => c.getFirstPropertyValue('uid') === RICH_UID)!;
    expect(ev.getFirstPropertyValue('summary')).toBe('Budget review (v2)');
    expect(ev.getFirstPropertyValue('sequence')).toBe(4);
    expect(ev.getAllProperties('attendee')).toHaveLength(2);
    expect(ev.getFirstSubcomponent('valarm')).toBeTruthy();
    // Two exports of an unchanged calendar are the same bytes.
    expect(await exported()).toBe(out);
  });

  it('a series: an override without LOCATION has none in the listing and in the export; the EXDATE stays', async () => {
    await importIcs(berlinSeries());
    const series = await stored(SERIES_UID);
    expect(series.overrides.find((o: any) => o.recurrence_id === '2031-06-23T07:00:00.000Z')).toMatchObject({ location: '' });
    const listing = (await a.api('GET', '/calendar/events?start=2031-06-20T00:00:00Z&end=2031-06-25T00:00:00Z')).json.events;
    expect(listing).toHaveLength(1);
    expect(listing[0]).toMatchObject({ title: 'Weekly sync (long)', recurrence_id: '2031-06-23T07:00:00.000Z' });
    expect(listing[0].location).toBeUndefined();
    await a.api('PATCH', '/calendar/edit', { body: { uid: SERIES_UID, updates: { location: 'Room 3' } } });
    const out = await exported();
    expect(unfolded(out)).toContain('EXDATE;TZID=Europe/Berlin:20310616T090000');
    const mine = vevents(out).filter((c) => c.getFirstPropertyValue('uid') === SERIES_UID);
    expect(mine).toHaveLength(3);
    expect(mine[0]!.getFirstPropertyValue('location')).toBe('Room 3');
    expect(mine[1]!.getFirstPropertyValue('location')).toBe('Room 9');
    expect(mine[2]!.hasProperty('location')).toBe(false);
    // One VTIMEZONE per zone, though the file brought its own Europe/Berlin.
    expect(out.match(/TZID:Europe\/Berlin\r\n/g)).toHaveLength(1);
  });

  it('an occurrence whose location is taken off in kairos has none there; the series keeps its own', async () => {
    const r = await a.api('PATCH', '/calendar/edit', {
      body: { uid: SERIES_UID, recurrence_id: '2031-06-30T07:00:00.000Z', updates: { location: null } },
    });
    expect(r.status, r.text).toBe(200);
    const listing = (await a.api('GET', '/calendar/events?start=2031-06-29T00:00:00Z&end=2031-07-08T00:00:00Z')).json.events;
    expect(listing.map((e: any) => e.location ?? null)).toEqual([null, 'Room 3']);
  });

  it('an event with floating times keeps no source: it is exported in its zone, as kairos read it', async () => {
    const floating = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Other Corp//Other Calendar 9.1//EN',
      'X-WR-TIMEZONE:America/New_York',
      'BEGIN:VEVENT',
      'UID:floating-1@other.example',
      'DTSTAMP:20250101T000000Z',
      'DTSTART:20310701T090000',
      'DTEND:20310701T100000',
      'SUMMARY:Floating',
      'ATTENDEE:mailto:ann@other.example',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    await importIcs(floating);
    const ev = vevents(await exported()).find((c) => c.getFirstPropertyValue('uid') === 'floating-1@other.example')!;
    expect(ev.getFirstProperty('dtstart')!.getParameter('tzid')).toBe('America/New_York');
  });
});
