import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useDaemon } from '../helpers/daemon.js';
import { HAS_RADICALE, type Radicale, startDavProxy, startRadicale, vevent } from '../helpers/radicale.js';

/**
 * Two-way CalDAV sync against a real Radicale (htpasswd auth, loopback port 0), reached through a
 * counting proxy that can also drop the connection mid-sync. Skips with one line when the Debian
 * package `radicale` is not installed.
 */
if (!HAS_RADICALE) console.warn('skipping CalDAV sync tests: radicale is not installed (apt-get install -y radicale)');
const suite = HAS_RADICALE ? describe : describe.skip;

const d = useDaemon();
let rad: Radicale;
let proxy: Awaited<ReturnType<typeof startDavProxy>>;
let work: string;

const run = async (name = 'work') => {
  const r = await d.api('POST', `/calendar/sync/run?name=${name}`);
  expect(r.status, r.text).toBe(200);
  return r.json.runs[0];
};
const events = async () => (await d.api('GET', '/calendar/events?expand=false')).json.events as any[];
const byTitle = async (t: string) => (await events()).find((e) => e.title === t);
const viaProxy = (url: string) => url.replace(rad.base, proxy.base);

beforeAll(async () => {
  if (!HAS_RADICALE) return;
  rad = await startRadicale();
  proxy = await startDavProxy(rad.base);
  work = await rad.mkcalendar('work');
}, 30_000);
afterAll(async () => {
  await proxy?.close();
  await rad?.stop();
});

suite('two-way CalDAV with Radicale', () => {
  it('a wrong password: a clear error, nothing stored', async () => {
    const r = await d.api('POST', '/calendar/sync/accounts', { body: { name: 'work', url: viaProxy(work), username: rad.user, password: 'wrong' } });
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('caldav_auth_failed');
    expect(r.json.error.message).toMatch(/refused the user name or password/);
    expect(r.text).not.toContain('wrong');
    expect((await d.api('GET', '/calendar/sync/accounts')).json.accounts).toEqual([]);
    expect(() => statSync(join(d.home, 'sync-secrets.json'))).toThrow();
  });

  it('adds an account: the password in sync-secrets.json (0600), never in db.json or the answer', async () => {
    const r = await d.api('POST', '/calendar/sync/accounts', { body: { name: 'work', url: viaProxy(work), username: rad.user, password: rad.password } });
    expect(r.status, r.text).toBe(201);
    expect(r.text).not.toContain(rad.password);
    expect(statSync(join(d.home, 'sync-secrets.json')).mode & 0o777).toBe(0o600);
    const list = await d.api('GET', '/calendar/sync/accounts');
    expect(list.json.accounts[0]).toMatchObject({ name: 'work', username: rad.user, auth: 'password' });
    expect(list.text).not.toContain(rad.password);
  });

  it('pulls an event created on the server, pushes one created in kairos', async () => {
    expect((await rad.dav('PUT', `${work}srv-1.ics`, vevent('srv-1', 'From the server'), { 'content-type': 'text/calendar' })).status).toBe(201);
    const mine = await d.api('POST', '/calendar/create', { body: { title: 'From kairos', scheduled_for: '2031-06-02T09:00:00Z', duration_minutes: 30 } });
    expect(mine.status).toBe(201);
    const r = await run();
    expect(r).toMatchObject({ status: 'ok', method: 'sync-collection', counts: { pulled: 1, pushed: 1, conflicts: 0 } });
    expect(await byTitle('From the server')).toMatchObject({ source: 'caldav', scheduled_for: '2031-06-01T10:00:00.000Z' });
    const onServer = await rad.dav('GET', `${work}${encodeURIComponent(mine.json.uid)}.ics`);
    expect(onServer.status).toBe(200);
    expect(onServer.text).toContain('SUMMARY:From kairos');
  });

  it('two syncs in a row with no changes send no writes', async () => {
    await run();
    proxy.reset();
    const r = await run();
    expect(r.counts).toEqual({ pulled: 0, pushed: 0, removed_local: 0, removed_remote: 0, conflicts: 0 });
    expect(proxy.counts.PUT ?? 0).toBe(0);
    expect(proxy.counts.DELETE ?? 0).toBe(0);
  });

  it('edits and removals travel both ways', async () => {
    // (No comma in a raw SUMMARY: iCalendar wants it escaped.)
    await rad.dav('PUT', `${work}srv-1.ics`, vevent('srv-1', 'From the server renamed'), { 'content-type': 'text/calendar' });
    const mine = await byTitle('From kairos');
    expect((await d.api('PATCH', '/calendar/edit', { body: { uid: mine.uid, updates: { title: 'From kairos, renamed' } } })).status).toBe(200);
    const r = await run();
    expect(r.counts).toMatchObject({ pulled: 1, pushed: 1, conflicts: 0 });
    expect(await byTitle('From the server renamed')).toBeDefined();
    expect((await rad.dav('GET', `${work}${encodeURIComponent(mine.uid)}.ics`)).text).toContain('SUMMARY:From kairos\\, renamed');

    await rad.dav('DELETE', `${work}srv-1.ics`);
    expect((await d.api('DELETE', `/calendar/remove?uid=${encodeURIComponent(mine.uid)}`)).status).toBe(200);
    const r2 = await run();
    expect(r2.counts).toMatchObject({ removed_local: 1, removed_remote: 1 });
    expect(await byTitle('From the server renamed')).toBeUndefined();
    expect((await rad.dav('GET', `${work}${encodeURIComponent(mine.uid)}.ics`)).status).toBe(404);
  });

  it('a server that refuses sync-collection: changes found by ctag and an etag listing, then nothing to do', async () => {
    proxy.state.refuseSyncCollection = true;
    try {
      await rad.dav('PUT', `${work}listing.ics`, vevent('listing', 'Found by listing'), { 'content-type': 'text/calendar' });
      const r = await run();
      expect(r).toMatchObject({ status: 'ok', method: 'etag-listing', counts: { pulled: 1, pushed: 0 } });
      expect(await byTitle('Found by listing')).toBeDefined();
      proxy.reset();
      const again = await run();
      expect(again).toMatchObject({ status: 'ok', method: 'none', counts: { pulled: 0, pushed: 0 } });
      expect(proxy.counts.PUT ?? 0).toBe(0);
      await rad.dav('DELETE', `${work}listing.ics`);
      expect((await run()).counts.removed_local).toBe(1);
    } finally {
      proxy.state.refuseSyncCollection = false;
    }
  });

  it('a conflict keeps both: the server wins in the calendar, the local version is a sync_conflict trace', async () => {
    await rad.dav('PUT', `${work}both.ics`, vevent('both', 'Agreed'), { 'content-type': 'text/calendar' });
    await run();
    const local = await byTitle('Agreed');
    await rad.dav('PUT', `${work}both.ics`, vevent('both', 'Server says'), { 'content-type': 'text/calendar' });
    await d.api('PATCH', '/calendar/edit', { body: { uid: local.uid, updates: { title: 'Kairos says' } } });
    const ws = new WebSocket(`${d.base.replace('http', 'ws')}/ws?topics=events`, { headers: { authorization: `Bearer ${d.key}` } });
    const frames: any[] = [];
    ws.on('message', (m) => frames.push(JSON.parse(String(m))));
    await new Promise((ok, fail) => ws.once('open', ok).once('error', fail));
    const r = await run();
    expect(r.counts.conflicts).toBe(1);
    for (let i = 0; i < 100 && !frames.some((f) => f.type === 'event.sync_conflict'); i++) await new Promise((ok) => setTimeout(ok, 20));
    ws.close();
    expect(frames.find((f) => f.type === 'event.sync_conflict')?.data).toMatchObject({
      account: 'work',
      event_uid: local.uid,
      trace_uid: r.conflicts[0].trace_uid,
    });
    expect(r.conflicts[0]).toMatchObject({ event_uid: local.uid, title: 'Kairos says' });
    expect(await byTitle('Server says')).toBeDefined();
    expect(await byTitle('Kairos says')).toBeUndefined();
    const traces = (await d.api('GET', '/memory/pull?type=calendar_event&limit=200')).json.traces as any[];
    const kept = traces.find((t) => t.uid === r.conflicts[0].trace_uid);
    expect(kept.fields).toMatchObject({ reason: 'sync_conflict', account: 'work', local_version: { title: 'Kairos says' } });
    // The server's copy was not overwritten by the losing side.
    expect((await rad.dav('GET', `${work}both.ics`)).text).toContain('SUMMARY:Server says');
    const again = await run();
    expect(again.counts).toEqual({ pulled: 0, pushed: 0, removed_local: 0, removed_remote: 0, conflicts: 0 });
  });

  it('a recurring series with an override and its VTIMEZONE is kept whole both ways', async () => {
    const series = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//other client//EN',
      'BEGIN:VTIMEZONE',
      'TZID:Europe/Berlin',
      'BEGIN:DAYLIGHT',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0200',
      'TZNAME:CEST',
      'DTSTART:19700329T020000',
      'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
      'END:DAYLIGHT',
      'BEGIN:STANDARD',
      'TZOFFSETFROM:+0200',
      'TZOFFSETTO:+0100',
      'TZNAME:CET',
      'DTSTART:19701025T030000',
      'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
      'END:STANDARD',
      'END:VTIMEZONE',
      'BEGIN:VEVENT',
      'UID:weekly-berlin',
      'DTSTAMP:20250101T000000Z',
      'DTSTART;TZID=Europe/Berlin:20310303T090000',
      'DURATION:PT30M',
      'RRULE:FREQ=WEEKLY;COUNT=10',
      'SUMMARY:Weekly in Berlin',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:weekly-berlin',
      'DTSTAMP:20250101T000000Z',
      'RECURRENCE-ID;TZID=Europe/Berlin:20310331T090000',
      'DTSTART;TZID=Europe/Berlin:20310331T110000',
      'DURATION:PT30M',
      'SUMMARY:Weekly in Berlin (moved)',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    expect((await rad.dav('PUT', `${work}weekly.ics`, series, { 'content-type': 'text/calendar' })).status).toBe(201);
    await run();
    const local = await byTitle('Weekly in Berlin');
    expect(local).toMatchObject({ timezone: 'Europe/Berlin', rrule: expect.stringContaining('FREQ=WEEKLY') });
    expect(local.overrides).toHaveLength(1);
    // 09:00 Berlin is 07:00Z after the DST change of 30 March 2031; the override moved it to 11:00 (09:00Z).
    expect(local.overrides[0]).toMatchObject({ recurrence_id: '2031-03-31T07:00:00.000Z', scheduled_for: '2031-03-31T09:00:00.000Z' });

    await d.api('PATCH', '/calendar/edit', { body: { uid: local.uid, updates: { title: 'Weekly in Berlin (kairos)' } } });
    const r = await run();
    expect(r.counts.pushed).toBe(1);
    const back = (await rad.dav('GET', `${work}weekly.ics`)).text.replace(/\r\n /g, '');
    expect(back).toContain('BEGIN:VTIMEZONE');
    expect(back).toContain('TZID:Europe/Berlin');
    expect(back).toMatch(/RRULE:FREQ=WEEKLY/);
    expect(back).toMatch(/RECURRENCE-ID[^\r\n]*(20310331T090000|20310331T070000Z)/);
    expect(back).toContain('SUMMARY:Weekly in Berlin (kairos)');
    expect(back).toContain('UID:weekly-berlin');
  });

  it('events an agent proposed reach the server only after approval and execution', async () => {
    const plan = await d.api('POST', '/agent/plan', {
      body: { actions: [{ kind: 'add_event', title: 'Agent idea', scheduled_for: '2031-07-01T10:00:00Z', duration_minutes: 30 }] },
    });
    expect(plan.status, plan.text).toBe(201);
    proxy.reset();
    await run();
    expect(proxy.counts.PUT ?? 0).toBe(0);
    const ok = await d.api('POST', '/agent/approve', { body: { plan_id: plan.json.plan_id, execute: true } });
    expect(ok.status, ok.text).toBe(200);
    const r = await run();
    expect(r.counts.pushed).toBe(1);
    const ev = await byTitle('Agent idea');
    expect((await rad.dav('GET', `${work}${encodeURIComponent(ev.uid)}.ics`)).text).toContain('SUMMARY:Agent idea');
  });

  it('the server going away mid-sync: a clear error, then the next sync completes without duplicates', async () => {
    for (let i = 0; i < 6; i++)
      await d.api('POST', '/calendar/create', { body: { title: `Batch ${i}`, scheduled_for: `2031-08-0${i + 1}T10:00:00Z`, duration_minutes: 30 } });
    proxy.state.writes = 0;
    proxy.state.failAfterWrites = 3;
    const broken = await run();
    expect(broken.status).toBe('failed');
    expect(broken.error.code).toBe('caldav_unreachable');
    const acct = (await d.api('GET', '/calendar/sync/accounts')).json.accounts[0];
    expect(acct.last_error).toMatchObject({ code: 'caldav_unreachable' });
    proxy.state.failAfterWrites = Infinity;
    const r = await run();
    expect(r.status).toBe('ok');
    expect(r.counts.pushed).toBe(3);
    const listing = await rad.dav('PROPFIND', work, undefined, { depth: '1' });
    const hrefs = [...listing.text.matchAll(/<(?:\w+:)?href>([^<]+\.ics)<\/(?:\w+:)?href>/gi)].map((m) => m[1]);
    const local = (await events()).filter((e) => e.source !== 'subscription');
    expect(hrefs.length).toBe(local.length);
    const status = await d.api('GET', '/agent/status');
    expect(status.json).toMatchObject({ status: 'ok', queue: expect.any(Object), store: expect.any(Object) });
    expect(status.json.sync.accounts[0]).toMatchObject({ name: 'work', last_error: null, last_counts: { pushed: 3 } });
    expect((await run()).counts).toEqual({ pulled: 0, pushed: 0, removed_local: 0, removed_remote: 0, conflicts: 0 });
  });

  it('an initial sync of 500 events, then nothing to do', async () => {
    const big = await rad.mkcalendar('big');
    // Written straight into Radicale's storage (as another client's 500 PUTs would leave it): the sync is what is measured here.
    for (let i = 0; i < 500; i++) {
      const start = `2032${String((i % 12) + 1).padStart(2, '0')}${String((i % 28) + 1).padStart(2, '0')}T0${i % 10}0000Z`;
      writeFileSync(join(rad.storage('big'), `e${i}.ics`), vevent(`bulk-${i}`, `Bulk ${i}`, start));
    }
    const who = await d.api('POST', '/user/register', { body: { email: 'bulk@example.com', password: 'correct horse battery', display_name: 'Bulk' } });
    const as = { 'x-user-id': who.json.user_id };
    const add = await d.api('POST', '/calendar/sync/accounts', {
      body: { name: 'big', url: viaProxy(big), username: rad.user, password: rad.password },
      headers: as,
    });
    expect(add.status, add.text).toBe(201);
    const r = await d.api('POST', '/calendar/sync/run?name=big', { headers: as, timeoutMs: 120_000 });
    expect(r.json.runs[0]).toMatchObject({ status: 'ok', counts: { pulled: 500, pushed: 0 } });
    proxy.reset();
    const again = await d.api('POST', '/calendar/sync/run?name=big', { headers: as });
    expect(again.json.runs[0].counts).toEqual({ pulled: 0, pushed: 0, removed_local: 0, removed_remote: 0, conflicts: 0 });
    expect(proxy.counts.PUT ?? 0).toBe(0);
  }, 180_000);

  it('removing an account deletes its password; the password is in no other file of the home (store, journal, log) nor in an export', async () => {
    const r = await d.api('DELETE', '/calendar/sync/accounts/work');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ deleted: 'work', secret_removed: true, oauth_provider: null });
    expect(readFileSync(join(d.home, 'sync-secrets.json'), 'utf8')).not.toContain(`${d.userId}/work`);
    const files = readdirSync(d.home, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name !== 'sync-secrets.json')
      .map((e) => join(e.parentPath, e.name));
    expect(files.some((f) => f.endsWith('daemon.log'))).toBe(true);
    for (const f of files) expect(readFileSync(f, 'utf8'), f).not.toContain(rad.password);
    const exported = await d.api('GET', `/context/export?user_id=${d.userId}&export_format=full`);
    expect(exported.status).toBe(200);
    expect(exported.text).not.toContain(rad.password);
  });
});
