import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/in-process.js';

/**
 * The OpenAI-compatible provider against a small local server that plays a model: a good plan,
 * invalid output, a refusal, a timeout. Each failure must fall back to the default provider.
 */

type Mode = 'ok' | 'invalid' | 'refusal' | 'slow' | 'error';
let mode: Mode = 'ok';
const seen: { path: string; auth?: string; body: any }[] = [];
let llm: Server;
let d: TestApp;
const context = { now: '2031-01-01T09:00:00Z', timezone: 'UTC' };

const reply = (content: unknown, extra: Record<string, unknown> = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: content === null ? null : JSON.stringify(content), ...extra }, finish_reason: 'stop' }],
});

const GOOD = {
  reply: 'Booked the dentist.',
  actions: [
    {
      kind: 'add_event',
      title: 'Dentist (model)',
      scheduled_for: '2031-01-07T15:00:00Z',
      duration_minutes: 45,
      tempo_tag: null,
      event_uid: null,
      content: null,
      reasoning: 'the model read next Tuesday 3pm',
      confidence: 0.8,
    },
  ],
};

async function body(req: IncomingMessage): Promise<any> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return JSON.parse(text);
}

beforeAll(async () => {
  llm = createServer(async (req, res) => {
    const b = await body(req);
    seen.push({ path: req.url ?? '', auth: req.headers.authorization, body: b });
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    if (mode === 'ok') return send(200, reply(GOOD));
    if (mode === 'invalid') return send(200, reply({ actions: [{ kind: 'add_event', title: 'x', scheduled_for: 'next tuesday', duration_minutes: 45 }] }));
    if (mode === 'refusal') return send(200, reply(null, { refusal: 'I cannot help with scheduling.' }));
    if (mode === 'error') return send(500, { error: { message: 'model crashed' } });
    setTimeout(() => send(200, reply(GOOD)), 3000);
  });
  await new Promise<void>((ok) => llm.listen(0, '127.0.0.1', ok));
  const port = (llm.address() as AddressInfo).port;
  // The provider is chosen in config.json; a short timeout keeps the slow case quick.
  d = await startApp(
    { KAIROS_LLM_BASE_URL: `http://127.0.0.1:${port}/v1`, KAIROS_LLM_MODEL: 'fake-model', KAIROS_LLM_API_KEY: 'sk-local' },
    { config: { planner: { provider: 'openai', timeout_ms: 700 } } },
  );
});

afterAll(async () => {
  await d?.stop();
  await new Promise((ok) => llm.close(ok));
});

beforeEach(() => {
  seen.length = 0;
  mode = 'ok';
});

const propose = () => d.api('POST', '/agent/plan', { body: { prompt: 'Dentist appointment next Tuesday at 3pm for 45 minutes', context } });

describe('the OpenAI-compatible provider in the daemon', () => {
  it('plans with the model and records it on the plan', async () => {
    const r = await propose();
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({ provider: 'openai', model: 'fake-model' });
    expect(r.json.actions).toEqual([
      expect.objectContaining({
        title: 'Dentist (model)',
        scheduled_for: '2031-01-07T15:00:00.000Z',
        duration_minutes: 45,
        reasoning: 'the model read next Tuesday 3pm',
      }),
    ]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      path: '/v1/chat/completions',
      auth: 'Bearer sk-local',
      body: { model: 'fake-model', response_format: { type: 'json_schema' } },
    });
    const status = await d.api('GET', '/agent/status');
    expect(status.json.planner).toEqual({ provider: 'openai', model: 'fake-model' });
  });

  it.each([
    ['invalid output', 'invalid', /invalid_output/],
    ['a refusal', 'refusal', /refusal/],
    ['a timeout', 'slow', /timeout/],
    ['a server error', 'error', /http_error/],
  ] as const)('falls back to the default provider on %s, and says so', async (_why, m, reason) => {
    mode = m;
    const r = await propose();
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({ provider: 'default', model: null });
    expect(r.json.actions).toEqual([
      expect.objectContaining({ title: 'Dentist appointment', scheduled_for: '2031-01-07T15:00:00.000Z', duration_minutes: 45 }),
    ]);
    expect(r.json.reasoning).toMatch(/Planned by the default provider: openai provider \(fake-model\) failed/);
    expect(r.json.reasoning).toMatch(reason);
    const p = await d.api('POST', '/chat/plan-preview', { body: { prompt: 'Gym tomorrow at 7am', context } });
    expect(p.json).toMatchObject({ provider: 'default', fallback: expect.stringMatching(reason) });
  });

  it('/chat/respond asks the model once for a plan that enters the queue', async () => {
    const r = await d.api('POST', '/chat/respond', { body: { prompt: 'Dentist appointment next Tuesday at 3pm for 45 minutes', context } });
    expect(r.status, r.text).toBe(200);
    expect(r.json.plan).toMatchObject({ provider: 'openai', actions: [expect.objectContaining({ title: 'Dentist (model)' })] });
    expect(seen).toHaveLength(1);
  });
});
