import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../helpers/in-process.js';

/**
 * The calendar feed and export.ics as pollers fetch them: a strong ETag and Last-Modified,
 * conditional requests answered 304 while nothing changed and 200 as soon as anything did
 * (an edit, a delete, a change within the same second). The pollers are real: curl's
 * `--etag-compare` / `-z` (what scripts and cron jobs use) and vdirsyncer (Debian), whose http
 * storage fetches the feed on every sync without validators — it must keep reading it as before.
 */
const d = useApp();
const run = promisify(execFile);
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
if (!has('vdirsyncer')) console.warn('skipping the vdirsyncer case: vdirsyncer is not installed (apt-get install -y vdirsyncer)');

let dir: string;
let feed: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kairos-feed-poll-'));
  const k = await d.api('POST', '/auth/keys', { body: { name: 'calendar app', scopes: ['calendar:feed'] } });
  feed = `${d.base}/calendar/feed.ics?key=${encodeURIComponent(k.json.key)}`;
  const first = await d.api('POST', '/calendar/create', { body: { title: 'Standup', scheduled_for: '2031-05-05T09:00:00Z', duration_minutes: 15 } });
  expect(first.status, first.text).toBe(201);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const add = async (title: string) => {
  const r = await d.api('POST', '/calendar/create', { body: { title, scheduled_for: '2031-05-06T09:00:00Z', duration_minutes: 30 } });
  expect(r.status, r.text).toBe(201);
  return r.json.uid as string;
};

/**
 * A GET with node:http: fetch() adds `Cache-Control: no-cache` to a request that carries its own
 * If-None-Match, and a reload like that is always answered in full.
 */
function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((ok, fail) => {
    http
      .get(`${d.base}${path}`, { headers: { authorization: `Bearer ${d.key}`, ...headers } }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => ok({ status: res.statusCode!, headers: res.headers, text }));
      })
      .on('error', fail);
  });
}

/** curl as a poller: the status code, keeping the ETag in `etag` and the body (with the server's time) in `file`. */
async function curl(...args: string[]): Promise<number> {
  const { stdout } = await run('curl', ['-sS', '-o', join(dir, 'feed.ics'), '-w', '%{http_code}', ...args, feed]);
  return Number(stdout);
}

describe('the feed and export.ics with validators', () => {
  it('carry a strong ETag, Last-Modified and a Cache-Control that lets a private client revalidate', async () => {
    for (const path of [feed.slice(d.base.length), '/calendar/export.ics']) {
      const r = await d.api('GET', path, path.includes('key=') ? { key: null } : {});
      expect(r.status).toBe(200);
      expect(r.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      expect(Date.parse(r.headers.get('last-modified')!)).toBeGreaterThan(0);
      const cc = r.headers.get('cache-control')!;
      expect(cc).toMatch(/private/);
      expect(cc).toMatch(/no-cache/);
      expect(cc).not.toMatch(/no-store/);
    }
  });

  it('curl polling with --etag-compare gets 304 until the calendar changes, then the new feed', async () => {
    const etag = join(dir, 'etag');
    expect(await curl('--etag-save', etag)).toBe(200);
    expect(await curl('--etag-compare', etag, '--etag-save', etag)).toBe(304);
    expect(await curl('--etag-compare', etag, '--etag-save', etag)).toBe(304);
    await add('Planning');
    expect(await curl('--etag-compare', etag, '--etag-save', etag)).toBe(200);
    expect(await curl('--etag-compare', etag, '--etag-save', etag)).toBe(304);
  });

  it('curl -R -z (If-Modified-Since from the saved copy) gets 304 until a change, a delete included', async () => {
    const file = join(dir, 'feed.ics');
    expect(await curl('-R')).toBe(200);
    expect(await curl('-R', '-z', file)).toBe(304);
    // Within the same second as the copy's Last-Modified, most likely: the change must still show.
    const uid = await add('Review');
    expect(await curl('-R', '-z', file)).toBe(200);
    expect(await curl('-R', '-z', file)).toBe(304);
    const del = await d.api('DELETE', `/calendar/remove?uid=${uid}`);
    expect(del.status, del.text).toBe(200);
    expect(await curl('-R', '-z', file)).toBe(200);
  });

  it('export.ics answers If-None-Match and If-Modified-Since the same way; a reload gets the body', async () => {
    const r = await get('/calendar/export.ics');
    const etag = r.headers.etag!;
    const again = await get('/calendar/export.ics', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect((await get('/calendar/export.ics', { 'if-none-match': '"something-else"' })).status).toBe(200);
    expect((await get('/calendar/export.ics', { 'if-modified-since': r.headers['last-modified']! })).status).toBe(304);
    expect((await get('/calendar/export.ics', { 'if-none-match': etag, 'cache-control': 'no-cache' })).status).toBe(200);
    // Another range is another body, with its own ETag.
    const range = await get('/calendar/export.ics?start=2031-05-06&end=2031-05-07', { 'if-none-match': etag });
    expect(range.status).toBe(200);
    expect(range.headers.etag).not.toBe(etag);
  });

  it.skipIf(!has('vdirsyncer'))('vdirsyncer syncs the feed twice: every event the first time, nothing changed the second', { timeout: 120_000 }, async () => {
    const local = join(dir, 'vdir');
    mkdirSync(local);
    const config = join(dir, 'vdirsyncer.conf');
    writeFileSync(
      config,
      [
        '[general]',
        `status_path = "${join(dir, 'status')}/"`,
        '[pair kairos]',
        'a = "kairos_feed"',
        'b = "kairos_local"',
        'collections = null',
        '[storage kairos_feed]',
        'type = "http"',
        `url = "${feed}"`,
        '[storage kairos_local]',
        'type = "filesystem"',
        `path = "${local}/"`,
        'fileext = ".ics"',
        '',
      ].join('\n'),
    );
    const vdirsyncer = (...args: string[]) => run('vdirsyncer', ['-c', config, ...args], { env: { ...process.env, LC_ALL: 'C.UTF-8' } });
    await vdirsyncer('discover', 'kairos');
    await vdirsyncer('sync', 'kairos');
    const events = (await d.api('GET', '/calendar/events?start=2031-05-01&end=2031-06-01')).json.events.length;
    expect(readdirSync(local).filter((f) => f.endsWith('.ics'))).toHaveLength(events);
    const second = await vdirsyncer('sync', 'kairos');
    expect(`${second.stdout}${second.stderr}`).not.toMatch(/Copying|Deleting|Updating/);
    expect(readdirSync(local).filter((f) => f.endsWith('.ics'))).toHaveLength(events);
  });
});
