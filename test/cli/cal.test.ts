import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantOf, wallAt } from '../../src/time/zone-cache.js';
import { cliEnv, runCli, useDaemon } from '../helpers/daemon.js';
import { itShared, SHARED } from '../helpers/shared.js';

const d = useDaemon();
let env: Record<string, string | undefined>;
const out = mkdtempSync(join(tmpdir(), 'kairos-cal-cli-'));
const TZ = 'America/New_York';

beforeAll(async () => {
  await d.api('PATCH', '/user/update', { body: { updates: { timezone: TZ } } });
  // The machine's zone must not matter: natural language is read in the user's zone.
  env = cliEnv(d, { TZ: 'Asia/Tokyo' });
});
afterAll(async () => {
  rmSync(out, { recursive: true, force: true });
});

const cal = (args: string[], input?: string, extra: Record<string, string | undefined> = {}) =>
  runCli(['cal', ...args], { env: { ...env, ...extra }, ...(input !== undefined ? { input } : {}) });

describe('kairos cal', () => {
  let dentist: any;

  it('add reads "tomorrow 3pm" in the user zone (not the machine zone)', async () => {
    const r = await cal(['add', 'Dentist', '--at', 'tomorrow 3pm', '--for', '45m', '--tag', '@health', '--json']);
    expect(r.code, r.stderr).toBe(0);
    dentist = JSON.parse(r.stdout);
    const today = wallAt(Date.now(), TZ);
    const tomorrow = new Date(Date.UTC(today.year, today.month - 1, today.day + 1));
    const expected = instantOf(
      { year: tomorrow.getUTCFullYear(), month: tomorrow.getUTCMonth() + 1, day: tomorrow.getUTCDate(), hour: 15, minute: 0, second: 0 },
      TZ,
    );
    expect(dentist).toMatchObject({ title: 'Dentist', duration_minutes: 45, tag: '@health', scheduled_for: new Date(expected).toISOString(), timezone: TZ });
  });

  it('add takes ISO, a repeat rule and says so in readable output; warns about overlaps on stderr', async () => {
    const r = await cal(['add', 'Standup', '--at', '2031-03-03T09:30:00-05:00', '--for', '15', '--repeat', 'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^Added ev_\S+ “Standup”: Mon 2031-03-03 09:30–09:45 \(America\/New_York\), repeating every Monday and Wednesday, 4 times \(FREQ=WEEKLY;COUNT=4;BYDAY=MO,WE\)/,
    );
    const clash = await cal(['add', 'Clash', '--at', '2031-03-05T09:40:00-05:00', '--for', '1h']);
    expect(clash.code).toBe(0);
    expect(clash.stderr).toMatch(/overlaps “Standup” Wed 2031-03-05 09:30–09:45 \(ev_/);
  });

  it('add: a bare date is an all-day event; bad input exits 2 or 6', async () => {
    const r = await cal(['add', 'Trip', '--at', '2031-04-10', '--for', '3d', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ all_day: true, duration_minutes: 3 * 1440 });
    expect((await cal(['add', 'x', '--at', 'whenever pigs fly'])).code).toBe(2);
    expect((await cal(['add', 'x', '--at', 'tomorrow', '--for', 'forever'])).code).toBe(2);
    const badRule = await cal(['add', 'x', '--at', '2031-04-10T10:00:00Z', '--repeat', 'FREQ=NEVER']);
    expect(badRule.code).toBe(6);
    expect(badRule.stderr).toMatch(/^kairos: --repeat: .*FREQ.*It takes words \(daily, weekly, every weekday/);
  });

  it('add: an impossible time is refused (exit 2, as every date it cannot read), not turned into an all-day event', async () => {
    for (const at of ['tomorrow 25:00', 'tomorrow 99']) {
      const r = await cal(['add', 'Lunch', '--at', at]);
      expect(r.code, at).toBe(2);
      expect(r.stderr).toMatch(/^kairos: --at: ".+" in ".+" is not a time of day/);
      // Said once: the detail ("--at: … is not a time of day") is not repeated under the message.
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
    }
    const listed = await cal(['list', '--json']);
    expect(JSON.parse(listed.stdout).events.map((e: any) => e.title)).not.toContain('Lunch');
  });

  it('add: --repeat takes words and says the rule in words; a word it cannot read exits 6 naming the flag', async () => {
    const r = await cal(['add', 'Review', '--at', '2031-06-02T10:00:00-04:00', '--repeat', 'every weekday until 2031-06-30', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).rrule).toMatch(/^FREQ=WEEKLY;(UNTIL=20310701T035959Z;BYDAY=MO,TU,WE,TH,FR|BYDAY=MO,TU,WE,TH,FR;UNTIL=20310701T035959Z)$/);
    const m = await cal(['add', 'Book club', '--at', '2031-06-18T19:00:00-04:00', '--repeat', 'monthly on the 3rd wednesday, 5 times']);
    expect(m.code, m.stderr).toBe(0);
    expect(m.stdout).toMatch(/repeating monthly on the 3rd Wednesday, 5 times \(/);
    const bad = await cal(['add', 'x', '--at', '2031-06-18T19:00:00Z', '--repeat', 'EVERYWEEKDAY']);
    expect(bad.code).toBe(6);
    expect(bad.stderr).toMatch(/^kairos: --repeat: cannot read "everyweekday"/);
  });

  it('list prints the same agenda on a pipe (plain, no colour) and JSON only with --json, occurrences expanded', async () => {
    const piped = await cal(['list', '--from', '2031-03-01', '--to', '2031-03-15'], undefined, { NO_COLOR: undefined });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toMatch(/^Mon 2031-03-03\n {2}09:30–09:45 {2}Standup ↻ /);
    expect(piped.stdout).not.toMatch(/\x1b\[/);
    expect(piped.stdout.trimStart().startsWith('{')).toBe(false);
    const r = await cal(['list', '--from', '2031-03-01', '--to', '2031-03-15', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { events } = JSON.parse(r.stdout);
    expect(events.filter((e: any) => e.title === 'Standup').map((e: any) => e.scheduled_for)).toEqual([
      '2031-03-03T14:30:00.000Z',
      '2031-03-05T14:30:00.000Z',
      '2031-03-10T13:30:00.000Z',
      '2031-03-12T13:30:00.000Z',
    ]);
  });

  it('edit changes fields (--set, --at, --for); an unknown uid exits 5', async () => {
    const r = await cal(['edit', dentist.uid, '--set', 'title=Dentist (checkup)', '--for', '1h', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ title: 'Dentist (checkup)', duration_minutes: 60, version: 2 });
    const stale = await cal(['edit', dentist.uid, '--title', 'x', '--expected-version', '1']);
    expect(stale.code).toBe(6);
    expect((await cal(['edit', 'ev_missing', '--title', 'x'])).code).toBe(5);
    expect((await cal(['edit', dentist.uid])).code).toBe(2);
  });

  it('rm wants --yes off a terminal', async () => {
    const no = await cal(['rm', dentist.uid]);
    expect(no.code).toBe(2);
    expect(no.stderr).toMatch(/--yes/);
    const yes = await cal(['rm', dentist.uid, '--yes', '--json']);
    expect(yes.code).toBe(0);
    expect(JSON.parse(yes.stdout)).toEqual({ deleted: dentist.uid });
    expect((await cal(['rm', dentist.uid, '--yes'])).code).toBe(5);
  });

  itShared('import - reads stdin and prints the report; re-import changes nothing; errors exit 1', async () => {
    const text = readFileSync(join(SHARED, 'fixtures/ics/real/google-biweekly-exdate-until.ics'), 'utf8');
    const r = await cal(['import', '-', '--json'], text);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ imported: 2, updated: 0, errors: [] });
    const again = await cal(['import', '-'], text);
    expect(again.stdout).toMatch(/0 new, 0 updated, 2 unchanged/);
    const broken = await cal(['import', join(SHARED, 'fixtures/ics/real/large-file-late-error.ics')]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/400 new/);
    expect(broken.stdout).toMatch(/error {2}line 2405, UID event_error@example.com/);
    expect((await cal(['import', join(out, 'missing.ics')])).code).toBe(2);
  });

  it('export writes an .ics file (-o) or stdout', async () => {
    const file = join(out, 'march.ics');
    const r = await cal(['export', '--from', '2031-03-01', '--to', '2031-04-01', '-o', file]);
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    const count = text.match(/^BEGIN:VEVENT\r$/gm)!.length;
    expect(r.stdout).toBe(`Wrote ${count} event(s) to ${file}\n`);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text).toContain('SUMMARY:Standup');
    expect(text).toContain('SUMMARY:Clash');
    expect(text).not.toContain('SUMMARY:Trip');
    const stdout = await cal(['export', '--from', '2031-03-01', '--to', '2031-04-01']);
    expect(stdout.stdout).toBe(text);
  });

  it('subscribe-url mints a feed-only key (calendar:feed) and prints a working feed URL', async () => {
    const r = await cal(['subscribe-url', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { url, scopes } = JSON.parse(r.stdout);
    expect(scopes).toEqual(['calendar:feed']);
    expect(url).toMatch(new RegExp(`^${d.base}/calendar/feed\\.ics\\?key=`));
    const feed = await fetch(url);
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain('SUMMARY:Standup');
    const readable = await cal(['subscribe-url']);
    expect(readable.stdout.split('\n')[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/calendar\/feed\.ics\?key=kairos_sk_/);
  });

  it('shows examples in help', async () => {
    const r = await runCli(['cal', 'add', '--help'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Examples:\n {2}\$ kairos cal add/);
  });
});
