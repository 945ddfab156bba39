import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { expectError } from '../helpers/expect-error.js';
import { useApp } from '../helpers/in-process.js';

// Issue 14, item 7: the small holes.
const d = useApp();

/** A raw GET with a chosen Host header (fetch will not send one of ours). */
function getWithHost(path: string, host: string | undefined): Promise<{ status: number; body: any }> {
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: d.port,
        path,
        method: 'GET',
        headers: { authorization: `Bearer ${d.key}`, ...(host === undefined ? {} : { host }) },
        setHost: host === undefined,
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => ok({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', fail);
    req.end();
  });
}

/**
 * Send only the headers of a request announcing `length` body bytes, and wait for the answer.
 * A daemon that reads the body before checking the key never answers (the body never comes).
 */
function headersOnly(path: string, length: number, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((ok, fail) => {
    const sock = connect(d.port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      sock.destroy();
      fail(new Error('no answer before the body was sent: the body is read before the key is checked'));
    }, 10_000);
    sock.on('data', (c) => {
      text += c;
      const m = /^HTTP\/1\.1 (\d+)/.exec(text);
      if (m && text.includes('\r\n\r\n') && text.endsWith('}')) {
        clearTimeout(timer);
        sock.destroy();
        ok({ status: Number(m[1]), text });
      }
    });
    sock.on('error', fail);
    const head = Object.entries({ host: `127.0.0.1:${d.port}`, 'content-type': 'text/calendar', 'content-length': String(length), ...headers })
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n');
    sock.write(`POST ${path} HTTP/1.1\r\n${head}\r\n\r\n`);
  });
}

describe('editable fields are own properties', () => {
  it.each(['constructor', 'toString', 'hasOwnProperty', '__defineGetter__'])('PATCH /memory/edit with "%s" → 422, nothing stored', async (field) => {
    const push = await d.api('POST', '/memory/push', { body: { traces: [{ type: 'observation', task_id: 'own-props', content: `own-${field}` }] } });
    expect(push.status, push.text).toBe(201);
    const uid = push.json.saved[0].uid;
    const r = await d.api('PATCH', '/memory/edit', { body: { uid, updates: JSON.parse(`{"${field}": "x"}`) } });
    expectError(r, 422, 'validation_failed');
    const h = await d.api('GET', `/memory/history?uid=${uid}`);
    expect(h.json.versions).toHaveLength(1);
  });

  it('a tempo mapping named "constructor" is an ordinary key, not "given twice"', async () => {
    const r = await d.api('POST', '/tempo/adjust', { body: { preferences: { tag_mappings: { constructor: '@morning' } } } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.tag_mappings.constructor).toBe('@morning');
  });

  it('a prompt saying "constructor" or "toString" plans like any word', async () => {
    const r = await d.api('POST', '/chat/plan-preview', {
      body: { prompt: 'constructor toString review tomorrow at 3pm for 1h', context: { now: '2025-06-02T09:00:00Z', timezone: 'UTC' } },
    });
    expect(r.status, r.text).toBe(200);
  });
});

describe('deep or hostile JSON → 400', () => {
  it.each([
    ['2,000 deep in a trace', `{"traces":[{"type":"note","content":"x","fields":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}]}`, '/memory/push', 'POST'],
    ['2,000 deep in preferences', `{"updates":{"preferences":${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}}}`, '/user/update', 'PATCH'],
    ['100,000 nested arrays', `{"traces":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, '/memory/push', 'POST'],
    ['a __proto__ key', '{"updates":{"preferences":{"__proto__":{"admin":true}}}}', '/user/update', 'PATCH'],
  ])('%s', async (_what, raw, path, method) => {
    const r = await d.api(method, path, { raw, headers: { 'content-type': 'application/json' } });
    expectError(r, 400, 'bad_request');
    expect((await d.api('GET', '/health', { key: null })).status).toBe(200);
  });

  it('a plainly nested preference is kept', async () => {
    const ok = await d.api('PATCH', '/user/update', { body: { updates: { preferences: { ui: { theme: { dark: true } } } } } });
    expect(ok.status, ok.text).toBe(200);
  });
});

describe('the key is checked before the body is read', () => {
  it('an anonymous 10 MiB import is refused (401) from its headers alone', async () => {
    const r = await headersOnly('/calendar/import', 10 * 1024 * 1024, {});
    expect(r.status, r.text).toBe(401);
  });

  it('a key without calendar:write is refused (403) from its headers alone', async () => {
    const k = await d.api('POST', '/auth/keys', { body: { name: 'reader', scopes: ['calendar:read'] } });
    const r = await headersOnly('/calendar/import', 10 * 1024 * 1024, { authorization: `Bearer ${k.json.key}` });
    expect(r.status, r.text).toBe(403);
  });
});

describe('Host must name this daemon (DNS rebinding)', () => {
  it.each([
    ['127.0.0.1 with the port', () => `127.0.0.1:${d.port}`],
    ['localhost with the port', () => `localhost:${d.port}`],
    ['localhost', () => 'localhost'],
    ['[::1] with the port', () => `[::1]:${d.port}`],
    ['127.1.2.3', () => '127.1.2.3'],
    ['LOCALHOST (case)', () => `LOCALHOST:${d.port}`],
  ])('%s → served', async (_what, host) => {
    expect((await getWithHost('/user/profile', host())).status).toBe(200);
  });

  it.each([
    ['attacker.example', 'attacker.example'],
    ['attacker.example with our port', 'attacker.example:7340'],
    ['localhost.attacker.example', 'localhost.attacker.example'],
    ['127.0.0.1.nip.io', '127.0.0.1.nip.io'],
    ['an empty Host', ''],
    ['a bracket left open', '[::1'],
  ])('%s → 403 forbidden_host, public routes too', async (_what, host) => {
    for (const path of ['/health', '/user/profile']) {
      const r = await getWithHost(path, host);
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('forbidden_host');
    }
  });

  it('the WebSocket upgrade too', async () => {
    const status = (host: string) =>
      new Promise<number>((ok) => {
        const ws = new WebSocket(`ws://127.0.0.1:${d.port}/ws`, { headers: { authorization: `Bearer ${d.key}`, host } });
        ws.on('open', () => {
          ws.close();
          ok(101);
        });
        ws.on('unexpected-response', (_req, res) => ok(res.statusCode ?? 0));
        ws.on('error', () => {});
      });
    expect(await status('attacker.example')).toBe(403);
    expect(await status(`localhost:${d.port}`)).toBe(101);
  });
});
