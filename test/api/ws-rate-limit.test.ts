import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { useApp } from '../helpers/in-process.js';

/**
 * Issue 14 (a leftover of item 6): a credential refused on the WebSocket upgrade counts against
 * the client's address exactly as one refused on an HTTP route does, in the same bucket. Before,
 * `/ws` took unlimited guesses: every bad key was a 401, however many.
 */
const d = useApp({ KAIROS_RATE_LIMIT: '5' });

/** Status and headers of an upgrade from a chosen loopback address (127.0.0.0/8 is all ours). */
function upgrade(from: string, key: string): Promise<{ status: number; retryAfter?: string; code?: string }> {
  return new Promise((ok, fail) => {
    const ws = new WebSocket(`${d.base.replace('http', 'ws')}/ws`, { localAddress: from, headers: { authorization: `Bearer ${key}` } });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], code: JSON.parse(body).error?.code }));
    });
    ws.on('open', () => {
      ws.close();
      ok({ status: 101 });
    });
    ws.on('error', (e) => fail(e));
  });
}

function httpStatus(from: string, path: string, key: string): Promise<number> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port: d.port, path, localAddress: from, headers: { authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('end', () => ok(res.statusCode!));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('failed credentials on the WebSocket upgrade', () => {
  it('count against the address: the 6th bad key of a minute is 429 with Retry-After, a valid key still connects', async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await upgrade('127.0.0.21', `kairos_sk_guess${i}`));
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 429]);
    expect(answers[5]).toMatchObject({ code: 'rate_limited', retryAfter: '30' });
    // Another address is not held up, and neither is a valid key on this one.
    expect((await upgrade('127.0.0.22', 'kairos_sk_guess')).status).toBe(401);
    expect((await upgrade('127.0.0.21', d.key)).status).toBe(101);
  });

  it('share the bucket with HTTP: failures on either side add up', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push(await httpStatus('127.0.0.23', '/memory/pull', `kairos_sk_http${i}`));
    for (let i = 0; i < 2; i++) statuses.push((await upgrade('127.0.0.23', `kairos_sk_ws${i}`)).status);
    statuses.push((await upgrade('127.0.0.23', 'kairos_sk_ws-more')).status);
    statuses.push(await httpStatus('127.0.0.23', '/memory/pull', 'kairos_sk_http-more'));
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });
});
