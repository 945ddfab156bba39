import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ICAL from 'ical.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { removeHome, startDaemon, type TestDaemon } from '../helpers/daemon.js';
import { describeShared, HAS_SHARED, SHARED } from '../helpers/shared.js';

/**
 * The real-world corpus through the API: every file imports (malformed ones with a per-event
 * report, never a 500), and import → export → import into a fresh home gives the same events.
 */
const DIR = join(SHARED, 'fixtures/ics/real');
const FILES = !HAS_SHARED
  ? []
  : readdirSync(DIR)
      .filter((f) => f.endsWith('.ics'))
      .sort();
const sources = HAS_SHARED ? readFileSync(join(DIR, 'SOURCES.md'), 'utf8') : '';
const MALFORMED = new Set(FILES.filter((f) => new RegExp(`^\\| ${f.replace(/\./g, '\\.')} \\|[^\\n]*\\| MALFORMED`, 'm').test(sources)));
/**
 * Not marked MALFORMED, but SOURCES.md says one of its DTSTART values is "Next Year": that one
 * event cannot be placed in time and is reported; the file's other events import.
 */
const KNOWN_BAD_EVENT: Record<string, { uid: string; message: RegExp }> = {
  'lanyrd-multi-event.ics': { uid: 'sdfkf09fsd0', message: /DTSTART/ },
};

let a: TestDaemon;
let b: TestDaemon;
const usersA = new Map<string, string>();
const usersB = new Map<string, string>();
const exports = new Map<string, string>();
const outDir = mkdtempSync(join(tmpdir(), 'kairos-ics-'));

/** One user per file, so files that reuse a UID stay apart; the owner key acts for them (X-User-ID). */
async function userFor(d: TestDaemon, map: Map<string, string>, file: string): Promise<string> {
  const r = await d.api('POST', '/user/register', {
    body: { email: `${file.replace(/[^a-z0-9]/gi, '')}@example.com`, password: 'correct horse', display_name: file, timezone: 'Europe/Berlin' },
  });
  expect(r.status).toBe(201);
  map.set(file, r.json.user_id);
  return r.json.user_id;
}

const asUser = (id: string) => ({ 'x-user-id': id });
const shape = (e: any) => ({
  // The file's UID: the store key differs when another user's event holds it (the export writes the file's).
  uid: e.ical_uid ?? e.uid,
  title: e.title,
  start: Date.parse(e.scheduled_for),
  duration: e.duration_minutes,
  rrule: e.rrule ?? null,
  all_day: e.all_day,
  exdates: e.exdates ?? [],
  rdates: e.rdates ?? [],
  overrides: e.overrides ?? [],
});

beforeAll(async () => {
  if (!HAS_SHARED) return;
  [a, b] = await Promise.all([startDaemon(), startDaemon()]);
}, 60_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  for (const d of [a, b]) if (d) removeHome(d.home);
  rmSync(outDir, { recursive: true, force: true });
});

describeShared('importing the real-world corpus', () => {
  it.each(FILES)('%s imports (per-event report, no 500)', async (file) => {
    const user = await userFor(a, usersA, file);
    const text = readFileSync(join(DIR, file), 'utf8');
    const r = await a.api('POST', '/calendar/import', { raw: text, headers: { 'content-type': 'text/calendar', ...asUser(user) } });
    expect(r.status, r.text).toBe(200);
    const report = r.json;
    expect(report).toMatchObject({ imported: expect.any(Number), updated: 0, skipped: expect.any(Number), errors: expect.any(Array) });
    for (const e of report.errors) {
      expect(typeof e.message).toBe('string');
      expect(e.uid !== undefined || e.line !== undefined).toBe(true);
    }
    const known = KNOWN_BAD_EVENT[file];
    if (known) {
      expect(report.errors).toHaveLength(1);
      expect(report.errors[0]).toMatchObject({ uid: known.uid, line: expect.any(Number) });
      expect(report.errors[0].message).toMatch(known.message);
    } else if (!MALFORMED.has(file)) expect(report.errors).toEqual([]);

    // Re-importing the same file changes nothing.
    const again = await a.api('POST', '/calendar/import', { raw: text, headers: { 'content-type': 'text/calendar', ...asUser(user) } });
    expect(again.status).toBe(200);
    expect(again.json.imported).toBe(0);
    expect(again.json.updated).toBe(0);
    expect(again.json.skipped).toBe(report.skipped + report.imported);

    // The store answers normally afterwards, and holds exactly what the report says.
    const list = await a.api('GET', '/calendar/events?expand=false', { headers: asUser(user) });
    expect(list.status).toBe(200);
    expect(list.json.events).toHaveLength(report.imported);

    const ex = await a.api('GET', '/calendar/export.ics', { headers: asUser(user) });
    expect(ex.status).toBe(200);
    expect(ex.headers.get('content-type')).toMatch(/^text\/calendar/);
    exports.set(file, ex.text);
  });

  it('the malformed files are the ones SOURCES.md marks', () => {
    expect(MALFORMED.size).toBeGreaterThanOrEqual(10);
    expect(MALFORMED.has('large-file-late-error.ics')).toBe(true);
  });

  it('a broken event deep in a large file is reported with its UID and line; the other 400 import', async () => {
    const user = await userFor(a, usersA, 'late-error-check');
    const r = await a.api('POST', '/calendar/import', {
      raw: readFileSync(join(DIR, 'large-file-late-error.ics'), 'utf8'),
      headers: { 'content-type': 'text/calendar', ...asUser(user) },
    });
    expect(r.json.imported).toBe(400);
    expect(r.json.errors).toEqual([{ uid: 'event_error@example.com', line: 2405, message: expect.stringMatching(/DTSTART/) }]);
  });
});

describeShared('round trip: import → export → import into a fresh home', () => {
  const roundTrip = FILES.filter((f) => !MALFORMED.has(f));

  it('every export passes ics-validate (RFC 5545: CRLF, folding, UID/DTSTAMP/DTSTART…)', () => {
    const paths = roundTrip.map((f) => {
      const p = join(outDir, f);
      writeFileSync(p, exports.get(f)!);
      return p;
    });
    let out = '';
    try {
      out = execFileSync(join(SHARED, 'tools/ics-validate'), paths, { encoding: 'utf8', env: { ...process.env, PYENV_VERSION: 'system' } });
    } catch (e) {
      const err = e as { status?: number; stdout?: string; stderr?: string };
      throw new Error(`ics-validate failed (exit ${err.status}):\n${err.stdout}${err.stderr}`);
    }
    expect(out).toMatch(new RegExp(`${paths.length} passed, 0 failed`));
  });

  it.each(roundTrip)('%s: same events after the round trip; the export parses with ical.js', async (file) => {
    const text = exports.get(file)!;
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(/[^\r]\n/.test(text)).toBe(false);

    const userA = usersA.get(file)!;
    const before = (await a.api('GET', '/calendar/events?expand=false', { headers: asUser(userA) })).json.events.map(shape);

    // An independent parser reads every event back with its UID, title, start and rule.
    const vcal = new ICAL.Component(ICAL.parse(text));
    const masters = vcal.getAllSubcomponents('vevent').filter((v) => !v.hasProperty('recurrence-id'));
    expect(masters.map((v) => v.getFirstPropertyValue('uid')).sort()).toEqual(before.map((e: any) => e.uid).sort());
    for (const v of masters) {
      const ev = new ICAL.Event(v);
      const mine = before.find((e: any) => e.uid === ev.uid)!;
      expect(ev.summary).toBe(mine.title);
      if (!mine.all_day) expect(ev.startDate.toJSDate().getTime()).toBe(mine.start);
      expect((v.getFirstPropertyValue('rrule') as ICAL.Recur | null)?.toString() ?? null).toBe(
        mine.rrule === null ? null : ICAL.Recur.fromString(mine.rrule).toString(),
      );
    }

    const userB = await userFor(b, usersB, file);
    const r = await b.api('POST', '/calendar/import', { raw: text, headers: { 'content-type': 'text/calendar', ...asUser(userB) } });
    expect(r.status).toBe(200);
    expect(r.json.errors).toEqual([]);
    const after = (await b.api('GET', '/calendar/events?expand=false', { headers: asUser(userB) })).json.events.map(shape);
    expect(after).toEqual(before);
  });
});
