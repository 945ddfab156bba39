import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../helpers/in-process.js';
import { type DavServer, HAS_RADICALE, startRadicale } from '../helpers/radicale.js';
import { berlinSeries, RICH_UID, richEvent, SERIES_UID, unfolded } from '../helpers/rich-events.js';
import { HAS_KHAL_VDIRSYNCER, occurrencesByKhal } from '../helpers/vdirsyncer-khal.js';
import { HAS_XANDIKOS, startXandikos } from '../helpers/xandikos.js';

/**
 * The CalDAV matrix: the same round trips against two real servers on loopback, Radicale and
 * xandikos (Debian packages), with events written by another program (an invitation with
 * attendees, an alarm, two categories, X- properties; a weekly series in Europe/Berlin with an
 * EXDATE and overrides), edits on both sides, deletes and conflicts; then vdirsyncer and khal read
 * what kairos wrote as a third party. Each server's block skips with one line when it is absent.
 */
const SERVERS: { name: string; present: boolean; start: () => Promise<DavServer>; install: string }[] = [
  { name: 'radicale', present: HAS_RADICALE, start: startRadicale, install: 'radicale' },
  { name: 'xandikos', present: HAS_XANDIKOS, start: startXandikos, install: 'xandikos' },
];
const EDITED = /^(SUMMARY|SEQUENCE|DTSTAMP|LAST-MODIFIED)[;:]/;
const veventsOf = (ics: string) => new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent');

for (const server of SERVERS) {
  if (!server.present) console.warn(`skipping the CalDAV matrix on ${server.name}: it is not installed (apt-get install -y ${server.install})`);
  (server.present ? describe : describe.skip)(`CalDAV round trips with ${server.name}`, () => {
    const d = useApp();
    let srv: DavServer;
    let cal: string;
    const put = async (name: string, ics: string) => {
      const r = await srv.dav('PUT', `${cal}${name}`, ics, { 'content-type': 'text/calendar' });
      expect([201, 204], r.text).toContain(r.status);
    };
    const get = async (name: string) => (await srv.dav('GET', `${cal}${name}`)).text;
    const run = async () => {
      const r = await d.api('POST', '/calendar/sync/run?name=work');
      expect(r.status, r.text).toBe(200);
      expect(r.json.runs[0].status, JSON.stringify(r.json.runs[0])).toBe('ok');
      return r.json.runs[0];
    };
    const stored = async () => (await d.api('GET', '/calendar/events?expand=false')).json.events as any[];
    const byIcalUid = async (uid: string) => (await stored()).find((e) => (e.ical_uid ?? e.uid) === uid);
    const edit = async (uid: string, updates: object, recurrence_id?: string) => {
      const r = await d.api('PATCH', '/calendar/edit', { body: { uid, updates, ...(recurrence_id ? { recurrence_id } : {}) } });
      expect(r.status, r.text).toBe(200);
    };

    beforeAll(async () => {
      srv = await server.start();
      cal = await srv.mkcalendar('work');
      const r = await d.api('POST', '/calendar/sync/accounts', { body: { name: 'work', url: cal, username: srv.user, password: srv.password } });
      expect(r.status, r.text).toBe(201);
    }, 30_000);
    afterAll(async () => {
      await srv?.stop();
    });

    it('an invitation edited in kairos keeps its organizer, attendees, alarm, categories and X- properties on the server', async () => {
      await put('rich.ics', richEvent());
      expect((await run()).counts.pulled).toBe(1);
      const before = await get('rich.ics');
      const local = await byIcalUid(RICH_UID);
      expect(local).toMatchObject({ title: 'Budget review', tag: 'Work', location: 'Room 4' });
      await edit(local.uid, { title: 'Budget review (new agenda)' });
      expect((await run()).counts.pushed).toBe(1);
      const after = await get('rich.ics');
      // Every line the server held, but the edited title and the revision stamps, is still there.
      const now = unfolded(after);
      for (const l of unfolded(before).filter((l) => !EDITED.test(l))) expect(now, l).toContain(l);
      expect(now).toContain('SUMMARY:Budget review (new agenda)');
      expect(now).toContain('CATEGORIES:Work,Budget');
      expect(now).toContain('CREATED:20240501T120000Z');
      expect(now).toContain('SEQUENCE:4');
      const [ev] = veventsOf(after);
      expect(ev!.getAllProperties('attendee').map((a) => a.getFirstValue())).toEqual(['mailto:ann@other.example', 'mailto:bob@other.example']);
      expect(ev!.getFirstPropertyValue('organizer')).toBe('mailto:olga@other.example');
      expect(ev!.getFirstSubcomponent('valarm')).toBeTruthy();
      expect(ev!.getFirstSubcomponent('x-other-thing')?.getFirstPropertyValue('x-other-key')).toBe('kept');
      // The export writes the same object: what kairos keeps is what it exports.
      const exported = veventsOf((await d.api('GET', '/calendar/export.ics')).text).find((c) => c.getFirstPropertyValue('uid') === RICH_UID)!;
      expect(exported.getAllProperties('attendee')).toHaveLength(2);
      expect(exported.getFirstPropertyValue('summary')).toBe('Budget review (new agenda)');
      // Nothing changed since: the next run writes nothing.
      expect((await run()).counts).toMatchObject({ pulled: 0, pushed: 0 });
    });

    it('an attendee added on the server, then a title edit in kairos: the new attendee stays', async () => {
      const withCarl = (await get('rich.ics')).replace('CATEGORIES:Work,Budget', 'ATTENDEE;CN=Carl:mailto:carl@other.example\r\nCATEGORIES:Work,Budget');
      await put('rich.ics', withCarl);
      expect((await run()).counts).toMatchObject({ pulled: 0, conflicts: 0 });
      await edit((await byIcalUid(RICH_UID)).uid, { title: 'Budget review (final)' });
      expect((await run()).counts.pushed).toBe(1);
      const [ev] = veventsOf(await get('rich.ics'));
      expect(ev!.getFirstPropertyValue('summary')).toBe('Budget review (final)');
      expect(ev!.getAllProperties('attendee')).toHaveLength(3);
    });

    it('a series in Europe/Berlin with an EXDATE and overrides: an override without LOCATION has none, in kairos and on the server', async () => {
      await put('series.ics', berlinSeries());
      await run();
      const local = await byIcalUid(SERIES_UID);
      expect(local).toMatchObject({ timezone: 'Europe/Berlin', location: 'Room 1', exdates: ['2031-06-16T07:00:00.000Z'] });
      const occ = (await d.api('GET', '/calendar/events?start=2031-06-01T00:00:00Z&end=2031-07-15T00:00:00Z')).json.events.filter(
        (e: any) => e.occurrence_of === local.uid,
      );
      expect(occ.map((o: any) => [o.scheduled_for, o.location ?? null])).toEqual([
        ['2031-06-02T07:00:00.000Z', 'Room 1'],
        ['2031-06-09T09:00:00.000Z', 'Room 9'],
        ['2031-06-23T07:00:00.000Z', null],
        ['2031-06-30T07:00:00.000Z', 'Room 1'],
        ['2031-07-07T07:00:00.000Z', 'Room 1'],
      ]);
      await edit(local.uid, { title: 'Weekly sync (kairos)' });
      expect((await run()).counts.pushed).toBe(1);
      const back = await get('series.ics');
      const [master, moved, long] = veventsOf(back);
      expect(master!.getFirstPropertyValue('summary')).toBe('Weekly sync (kairos)');
      expect(unfolded(back)).toContain('EXDATE;TZID=Europe/Berlin:20310616T090000');
      expect(master!.getFirstSubcomponent('valarm')).toBeTruthy();
      expect(master!.getFirstPropertyValue('attendee')).toBe('mailto:ann@other.example');
      expect(moved!.getFirstPropertyValue('location')).toBe('Room 9');
      expect(long!.hasProperty('location')).toBe(false);
      expect(long!.getFirstPropertyValue('summary')).toBe('Weekly sync (long)');
    });

    it('one occurrence edited in kairos, another on the server: both arrive', async () => {
      const local = await byIcalUid(SERIES_UID);
      await edit(local.uid, { location: 'Room 2' }, '2031-06-30T07:00:00.000Z');
      expect((await run()).counts.pushed).toBe(1);
      const serverSide = veventsOf(await get('series.ics')).find((c) => String(c.getFirstPropertyValue('recurrence-id')).startsWith('2031-06-30'));
      expect(serverSide?.getFirstPropertyValue('location')).toBe('Room 2');
      const changed = (await get('series.ics')).replace('SUMMARY:Weekly sync (long)', 'SUMMARY:Weekly sync (longer)');
      await put('series.ics', changed);
      expect((await run()).counts.pulled).toBe(1);
      const mine = await byIcalUid(SERIES_UID);
      expect(mine.overrides.find((o: any) => o.recurrence_id === '2031-06-23T07:00:00.000Z')).toMatchObject({ title: 'Weekly sync (longer)', location: '' });
      expect(mine.overrides.find((o: any) => o.recurrence_id === '2031-06-30T07:00:00.000Z')).toMatchObject({ location: 'Room 2' });
    });

    it('a conflict: the server wins in the calendar, kairos keeps its version as a trace, the invitation stays whole', async () => {
      const local = await byIcalUid(RICH_UID);
      await edit(local.uid, { title: 'Kairos title' });
      const theirs = (await get('rich.ics')).replace(/SUMMARY:[^\r\n]*/, 'SUMMARY:Server title');
      await put('rich.ics', theirs);
      const r = await run();
      expect(r.counts.conflicts).toBe(1);
      const traces = (await d.api('GET', '/memory/pull?type=calendar_event&limit=500')).json.traces as any[];
      expect(traces.find((t) => t.uid === r.conflicts[0].trace_uid)?.fields).toMatchObject({
        reason: 'sync_conflict',
        local_version: { title: 'Kairos title' },
      });
      expect((await byIcalUid(RICH_UID)).title).toBe('Server title');
      const [ev] = veventsOf(await get('rich.ics'));
      expect(ev!.getFirstPropertyValue('summary')).toBe('Server title');
      expect(ev!.getAllProperties('attendee')).toHaveLength(3);
    });

    it('vdirsyncer and khal read what kairos wrote: the same occurrences as kairos lists', async (ctx) => {
      if (!HAS_KHAL_VDIRSYNCER) {
        console.warn('skipping the khal check: vdirsyncer or khal is not installed (apt-get install -y vdirsyncer khal)');
        ctx.skip();
      }
      const mine = await d.api('POST', '/calendar/create', {
        body: {
          title: 'Kairos fortnightly',
          scheduled_for: '2031-06-03T08:00:00Z',
          duration_minutes: 45,
          timezone: 'Europe/Berlin',
          rrule: 'FREQ=WEEKLY;INTERVAL=2;COUNT=3',
        },
      });
      expect(mine.status, mine.text).toBe(201);
      await run();
      const listing = (await d.api('GET', '/calendar/events?start=2031-06-01T00:00:00Z&end=2031-07-15T00:00:00Z')).json.events as any[];
      const ours = listing.map((e) => `${e.scheduled_for.slice(0, 16)} ${e.title}`).sort();
      const theirs = await occurrencesByKhal({ url: cal, user: srv.user, password: srv.password, from: '2031-06-01', days: 44 });
      expect(theirs.filter((l) => l.endsWith('Kairos fortnightly'))).toEqual([
        '2031-06-03T08:00 Kairos fortnightly',
        '2031-06-17T08:00 Kairos fortnightly',
        '2031-07-01T08:00 Kairos fortnightly',
      ]);
      expect(theirs).toEqual(ours);
    }, 60_000);

    it('deletes travel both ways', async () => {
      const local = await byIcalUid(RICH_UID);
      expect((await d.api('DELETE', `/calendar/remove?uid=${encodeURIComponent(local.uid)}`)).status).toBe(200);
      expect((await run()).counts.removed_remote).toBe(1);
      expect((await srv.dav('GET', `${cal}rich.ics`)).status).toBe(404);
      expect((await srv.dav('DELETE', `${cal}series.ics`)).status).toBeLessThan(300);
      expect((await run()).counts.removed_local).toBe(1);
      expect(await byIcalUid(SERIES_UID)).toBeUndefined();
    });
  });
}
