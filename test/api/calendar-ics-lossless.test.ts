import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { useApp } from '../helpers/in-process.js';
import { berlinSeries, SERIES_UID, unfolded } from '../helpers/rich-events.js';

/**
 * A calendar file imported, edited in kairos and exported: an overridden instance keeps only its
 * own properties (RFC 5545 §3.8.4.4), in the listing and in the export.
 */
const a = useApp();
const importIcs = async (ics: string) => {
  const r = await a.api('POST', '/calendar/import', { raw: ics, headers: { 'content-type': 'text/calendar' } });
  expect(r.status, r.text).toBe(200);
  return r.json;
};
const exported = async () => {
  const r = await a.api('GET', '/calendar/export.ics');
  expect(r.status).toBe(200);
  return r.text;
};
const stored = async (uid: string) => (await a.api('GET', '/calendar/events?expand=false')).json.events.find((e: any) => e.uid === uid);
const vevents = (ics: string) => new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent');

describe('import → edit → export: overrides carry only their own properties', () => {
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
    expect(unfolded(out)).toContain('EXDATE:20310616T070000Z');
    const mine = vevents(out).filter((c) => c.getFirstPropertyValue('uid') === SERIES_UID);
    expect(mine).toHaveLength(3);
    expect(mine[0]!.getFirstPropertyValue('location')).toBe('Room 3');
    expect(mine[1]!.getFirstPropertyValue('location')).toBe('Room 9');
    expect(mine[2]!.hasProperty('location')).toBe(false);
  });

  it('an occurrence whose location is taken off in kairos has none there; the series keeps its own', async () => {
    const r = await a.api('PATCH', '/calendar/edit', {
      body: { uid: SERIES_UID, recurrence_id: '2031-06-30T07:00:00.000Z', updates: { location: null } },
    });
    expect(r.status, r.text).toBe(200);
    const listing = (await a.api('GET', '/calendar/events?start=2031-06-29T00:00:00Z&end=2031-07-08T00:00:00Z')).json.events;
    expect(listing.map((e: any) => e.location ?? null)).toEqual([null, 'Room 3']);
  });
});
