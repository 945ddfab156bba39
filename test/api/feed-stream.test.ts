import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_BYTES } from '../../src/contracts/page.js';
import { useApp } from '../helpers/in-process.js';
import { HAS_SHARED, itShared, SHARED } from '../helpers/shared.js';

/**
 * A calendar whose .ics is larger than PAGE_BYTES is streamed a VEVENT at a time (no
 * Content-Length: the body is never held whole), with the same strong ETag as a whole body would
 * carry, and is still answered 304 while nothing changed.
 */
const d = useApp();
const dir = mkdtempSync(join(tmpdir(), 'kairos-feed-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EVENTS = 60;
let feed: string;
beforeAll(async () => {
  const description = 'ü'.repeat(60_000);
  for (let i = 0; i < EVENTS; i++) {
    const r = await d.api('POST', '/calendar/create', {
      body: {
        title: `long ${i}`,
        scheduled_for: new Date(Date.UTC(2031, 0, 1 + i, 9)).toISOString(),
        duration_minutes: 30,
        timezone: 'Europe/Berlin',
        description,
      },
    });
    expect(r.status, r.text.slice(0, 300)).toBe(201);
  }
  const k = await d.api('POST', '/auth/keys', { body: { name: 'calendar app', scopes: ['calendar:feed'] } });
  feed = `/calendar/feed.ics?key=${encodeURIComponent(k.json.key)}`;
}, 120_000);

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((ok, fail) => {
    http
      .get(`${d.base}${path}`, { headers: { authorization: `Bearer ${d.key}`, ...headers } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => ok({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }));
      })
      .on('error', fail);
  });
}

const validate = (name: string, body: Buffer) => {
  const file = join(dir, name);
  writeFileSync(file, body);
  return execFileSync(join(SHARED, 'tools', 'ics-validate'), [file], { encoding: 'utf8' });
};

describe.each([
  ['the feed', () => feed],
  ['export.ics', () => '/calendar/export.ics'],
])('%s of a calendar over PAGE_BYTES', (_name, path) => {
  it('is streamed, every event in it, its ETag the hash of the bytes sent; a revalidation gets 304', async () => {
    const r = await get(path());
    expect(r.status).toBe(200);
    expect(r.headers['content-length']).toBeUndefined();
    expect(r.headers['transfer-encoding']).toBe('chunked');
    expect(r.body.length).toBeGreaterThan(PAGE_BYTES);
    expect(r.body.toString('utf8').match(/BEGIN:VEVENT/g)).toHaveLength(EVENTS);
    expect(r.headers.etag).toBe(`"${createHash('sha256').update(r.body).digest('base64url')}"`);
    const again = await get(path(), { 'if-none-match': r.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  itShared('passes ics-validate', async () => {
    expect(validate('big.ics', (await get(path())).body)).toContain('1 passed');
  });
});

describe('a small calendar', () => {
  it('is sent whole, with its length', async () => {
    const r = await get('/calendar/export.ics?start=2031-01-01&end=2031-01-02');
    expect(r.status).toBe(200);
    expect(Number(r.headers['content-length'])).toBe(r.body.length);
    expect(r.headers.etag).toBe(`"${createHash('sha256').update(r.body).digest('base64url')}"`);
    if (HAS_SHARED) expect(validate('small.ics', r.body)).toContain('1 passed');
  });
});
