import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { useApp } from '../helpers/in-process.js';

const d = useApp();

/** The cookie of a page signed in with a one-time code. */
async function pageCookie(): Promise<string> {
  const code = (await d.api('POST', '/app/codes')).json.code;
  const r = await d.api('POST', '/app/session', { key: null, headers: { origin: d.base }, body: { code } });
  expect(r.status, r.text).toBe(200);
  return (r.headers.get('set-cookie') ?? '').split(';')[0]!;
}

/** Open /ws with these headers: 'open', or the HTTP status of the refusal. */
function upgrade(headers: Record<string, string>): Promise<'open' | number> {
  const ws = new WebSocket(`${d.base.replace('http', 'ws')}/ws`, { headers });
  return new Promise((ok) => {
    ws.once('open', () => {
      ws.close();
      ok('open');
    });
    ws.once('unexpected-response', (_req, res) => {
      ok(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', () => ok(0));
  });
}

describe('/ws and the page cookie', () => {
  it('accepts the cookie from the daemon’s own origin only', async () => {
    const cookie = await pageCookie();
    expect(await upgrade({ cookie, origin: d.base })).toBe('open');
    expect(await upgrade({ cookie, origin: 'http://evil.example' })).toBe(403);
    expect(await upgrade({ cookie: 'kairos_session=forged', origin: d.base })).toBe(401);
    expect(await upgrade({ origin: d.base })).toBe(401);
  });
});
