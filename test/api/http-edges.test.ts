import { describe, expect, it } from 'vitest';
import { useDaemon } from '../helpers/daemon.js';
import { expectError } from '../helpers/expect-error.js';

describe('requests refused before they reach a route still get the envelope', () => {
  const d = useDaemon();

  it('a "__proto__" key in a JSON body is a 400, not a 500', async () => {
    for (const path of ['/memory/push', '/calendar/create', '/agent/plan']) {
      const r = await d.api('POST', path, { raw: '{"__proto__": {"polluted": true}}', headers: { 'content-type': 'application/json' } });
      expectError(r, 400, 'bad_request');
    }
    expect((await d.api('GET', '/health', { key: null })).json).toEqual({ status: 'ok' });
  });

  it('a request line over the parser limit gets 431 in the envelope, and the daemon goes on', async () => {
    const r = await d.api('GET', `/memory/pull?task_id=${'x'.repeat(20_000)}`);
    expectError(r, 431, 'header_too_large');
    expect((await d.api('GET', '/memory/pull?limit=1')).status).toBe(200);
  });
});
