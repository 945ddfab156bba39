import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemon } from '../helpers/daemon.js';

/**
 * Issue 14, item 2: UIDs, property names, parameter names and TZIDs spelled like members of
 * Object.prototype are ordinary strings. Before the fix node-ical merged the event with UID
 * `__proto__` into Object.prototype, and every route of the daemon answered 404 until a restart.
 */
const d = useDaemon();

const HOSTILE = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__', 'isPrototypeOf'];

const vtimezone = (tzid: string) => [
  'BEGIN:VTIMEZONE',
  `TZID:${tzid}`,
  'BEGIN:STANDARD',
  'DTSTART:19700101T000000',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0100',
  'END:STANDARD',
  'END:VTIMEZONE',
];

/** One event per hostile name: as its UID, its TZID, X- properties, a bare property and a parameter. */
function hostileIcs(): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//hostile//EN', ...HOSTILE.flatMap(vtimezone)];
  HOSTILE.forEach((name, i) => {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${name}`,
      'DTSTAMP:20310101T000000Z',
      `DTSTART;TZID=${name}:203103${String(i + 1).padStart(2, '0')}T100000`,
      'DURATION:PT1H',
      `SUMMARY;${name}=x:Event ${name}`,
      ...HOSTILE.map((p) => `X-${p}:${p} value`),
      // A property whose lower-cased name is a member of Object.prototype, and names node-ical keys.
      'CONSTRUCTOR:bare',
      'X-keys:not a function',
      'X-assign:not a function',
      'X-type:VTODO',
      `X-PARAM;__proto__=polluted;constructor=x:y`,
      'END:VEVENT',
    );
  });
  lines.push('END:VCALENDAR', '');
  return lines.join('\r\n');
}

describe('a file whose names are members of Object.prototype', () => {
  it("the issue's file (UID:__proto__ with X- properties) leaves /health, /memory/pull and /calendar/create working", async () => {
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//x//EN',
      'BEGIN:VEVENT',
      'UID:__proto__',
      'DTSTAMP:20310101T000000Z',
      'DTSTART:20310201T100000Z',
      'DURATION:PT1H',
      'SUMMARY:hi',
      'X-method:GET',
      'X-status:404',
      'X-body:gone',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const r = await d.api('POST', '/calendar/import', { raw: ics, headers: { 'content-type': 'text/calendar' } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ imported: 1, errors: [] });
    expect((await d.api('GET', '/health')).status).toBe(200);
    expect((await d.api('GET', '/memory/pull')).status).toBe(200);
    const created = await d.api('POST', '/calendar/create', { body: { title: 'After', scheduled_for: '2031-02-02T10:00:00Z', task_id: 't' } });
    expect(created.status, created.text).toBe(201);
    expect((await d.api('DELETE', '/calendar/remove?uid=__proto__')).json).toEqual({ deleted: '__proto__' });
  });

  it('imports every event under its UID, and every route keeps working', async () => {
    const r = await d.api('POST', '/calendar/import', { raw: hostileIcs(), headers: { 'content-type': 'text/calendar' } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.errors).toEqual([]);
    expect(r.json.imported).toBe(HOSTILE.length);

    const health = await d.api('GET', '/health');
    expect(health.status, health.text).toBe(200);
    expect(health.json).toEqual({ status: 'ok' });
    const pull = await d.api('GET', '/memory/pull');
    expect(pull.status, pull.text).toBe(200);
    const created = await d.api('POST', '/calendar/create', { body: { title: 'After', scheduled_for: '2031-04-01T10:00:00Z', task_id: 't' } });
    expect(created.status, created.text).toBe(201);

    const list = await d.api('GET', '/calendar/events?expand=false');
    expect(list.status, list.text).toBe(200);
    const byUid = new Map((list.json.events as any[]).map((e) => [e.uid, e]));
    for (const [i, name] of HOSTILE.entries()) {
      const e = byUid.get(name);
      expect(e, `event ${name}`).toBeDefined();
      expect(e.title).toBe(`Event ${name}`);
      // The hostile TZID is unknown: the time is read in the file's offsets or the user's zone.
      expect(e.scheduled_for.slice(0, 10)).toBe(`2031-03-${String(i + 1).padStart(2, '0')}`);
    }

    // Each event is addressable by its UID, as a plain string.
    for (const name of HOSTILE) {
      const edit = await d.api('PATCH', '/calendar/edit', { body: { uid: name, updates: { title: `Renamed ${name}` } } });
      expect(edit.status, edit.text).toBe(200);
      expect(edit.json.uid).toBe(name);
    }
    const again = await d.api('POST', '/calendar/import', { raw: hostileIcs(), headers: { 'content-type': 'text/calendar' } });
    expect(again.json).toMatchObject({ imported: 0, updated: HOSTILE.length, errors: [] });

    const ics = await d.api('GET', '/calendar/export.ics');
    expect(ics.status).toBe(200);
    for (const name of HOSTILE) expect(ics.text).toContain(`\r\nUID:${name}\r\n`);
    for (const name of HOSTILE) expect((await d.api('DELETE', `/calendar/remove?uid=${encodeURIComponent(name)}`)).status).toBe(200);
    expect((await d.api('GET', '/health')).status).toBe(200);
  });
});

describe('defence in depth', () => {
  it('the running daemon has frozen Object.prototype and Object (checked by a refused write at start)', async () => {
    const log = readFileSync(join(d.home, 'daemon.log'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const started = log.filter((l) => l.msg === 'daemon started').at(-1);
    const hardened = log.filter((l) => l.msg === 'intrinsics frozen against prototype pollution').at(-1);
    expect(hardened).toMatchObject({ pid: started.pid, frozen: ['Object.prototype', 'Object'] });
    // …and it still serves everything after the hostile imports above.
    expect((await d.api('GET', '/health')).status).toBe(200);
  });
});
