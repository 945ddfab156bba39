import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../src/config/paths.js';
import { ensureOwnerCredentials } from '../../src/daemon/credentials.js';
import type { Planner } from '../../src/domain/plans/ports.js';
import { createApp } from '../../src/server/app.js';
import type { Services } from '../../src/server/services.js';
import { Store } from '../../src/store/store.js';
import { removeHome, tempHome } from '../helpers/daemon.js';
import { testServices } from '../helpers/in-process.js';

// The planner hook, exercised with a stand-in planner (the real one is another area's).
const home = tempHome();
let store: Store;
let server: Server;
let services: Services;
let base: string;
let key: string;
const calls: Parameters<Planner['propose']>[0][] = [];
let answer: Awaited<ReturnType<Planner['propose']>>;

const servicesWith = (planner: Planner | null) => testServices(store, { planner });

async function serve(s: Services): Promise<{ server: Server; base: string }> {
  const srv = createServer(createApp(s).callback());
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  return { server: srv, base: `http://127.0.0.1:${(srv.address() as AddressInfo).port}` };
}

async function api(method: string, path: string, body?: unknown) {
  const r = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, json: (await r.json()) as any };
}

beforeAll(async () => {
  store = await Store.open(homePaths(home));
  const stand_in: Planner = {
    async propose(req) {
      calls.push(req);
      return answer;
    },
  };
  services = servicesWith(stand_in);
  const creds = await ensureOwnerCredentials(services, homePaths(home).credentials);
  key = creds.api_key;
  await services.users.update(
    { userId: creds.user_id, authUserId: creds.user_id, keyId: null, agentId: null, scopes: new Set(['admin']), via: 'key' },
    creds.user_id,
    { timezone: 'UTC' },
  );
  ({ server, base } = await serve(services));
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await store.close();
  removeHome(home);
});

describe('a prompt-only plan goes through the planner', () => {
  it('the planner’s actions become a proposed plan with the prompt, provider and model', async () => {
    answer = {
      actions: [
        {
          kind: 'add_event',
          title: 'Dentist appointment',
          scheduled_for: '2031-01-07T15:00:00Z',
          duration_minutes: 45,
          estimate_minutes: 45,
          reasoning: 'next Tuesday at 3pm',
          confidence: 0.9,
        },
      ],
      reasoning: 'one appointment',
      provider: 'stub',
      model: null,
    };
    const r = await api('POST', '/agent/plan', {
      prompt: 'Dentist appointment next Tuesday at 3pm for 45 minutes',
      task_id: 'dentist',
      context: { now: '2031-01-01T09:00:00Z', timezone: 'UTC' },
    });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    expect(r.json).toMatchObject({
      status: 'proposed',
      edited: false,
      prompt: 'Dentist appointment next Tuesday at 3pm for 45 minutes',
      provider: 'stub',
      model: null,
      reasoning: 'one appointment',
      task_id: 'dentist',
    });
    expect(r.json.actions[0]).toMatchObject({ kind: 'add_event', duration_minutes: 45, scheduled_for: '2031-01-07T15:00:00.000Z' });
    expect(calls.at(-1)).toMatchObject({
      prompt: 'Dentist appointment next Tuesday at 3pm for 45 minutes',
      task_id: 'dentist',
      context: { now: '2031-01-01T09:00:00Z', timezone: 'UTC' },
    });
    expect(calls.at(-1)!.principal.userId).toBeTruthy();

    const a = await api('POST', '/agent/approve', { plan_id: r.json.plan_id, execute: true });
    expect(a.status).toBe(200);
    const q = await api('GET', '/agent/queue?status=executed');
    expect(q.json.plans.map((p: any) => p.plan_id)).toContain(r.json.plan_id);
    const ev = await api('GET', '/calendar/events?start=2031-01-07T00:00:00Z&end=2031-01-08T00:00:00Z');
    expect(ev.json.events.some((e: any) => e.duration_minutes === 45 && e.scheduled_for === '2031-01-07T15:00:00.000Z')).toBe(true);
  });

  it('the planner may choose the task; given actions win over the planner', async () => {
    answer = { actions: [{ kind: 'reflect', content: 'noted' }], reasoning: '', provider: 'stub', model: 'm1', task_id: 'journal' };
    const r = await api('POST', '/agent/plan', { prompt: 'note that I slept well' });
    expect(r.json.task_id).toBe('journal');
    const n = calls.length;
    const own = await api('POST', '/agent/plan', { prompt: 'ignored by the planner', actions: [{ kind: 'reflect', content: 'mine' }] });
    expect(own.status).toBe(201);
    expect(own.json.prompt).toBe('ignored by the planner');
    expect(calls.length).toBe(n);
  });

  it('without a planner, a prompt-only plan is refused with 422 saying so', async () => {
    // The same home served by a daemon built without a planner.
    const bare = await serve(servicesWith(null));
    const main = base;
    base = bare.base;
    try {
      const r = await api('POST', '/agent/plan', { prompt: 'Dentist next Tuesday at 3pm' });
      expect(r.status).toBe(422);
      expect(r.json.error.code).toBe('validation_failed');
      expect(r.json.error.message).toMatch(/no planner is configured/i);
      expect((await api('POST', '/agent/plan', { prompt: 'x', actions: [{ kind: 'reflect', content: 'own actions need no planner' }] })).status).toBe(201);
    } finally {
      base = main;
      await new Promise((r) => bare.server.close(r));
    }
  });

  it('invalid planner output is refused like an agent’s: 422 plan_invalid, nothing stored', async () => {
    const before = store.count('plans');
    answer = { actions: [{ kind: 'add_event', title: 'No time' }], reasoning: '', provider: 'stub', model: null };
    const r = await api('POST', '/agent/plan', { prompt: 'something vague' });
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('plan_invalid');
    expect(r.json.error.details.map((d: any) => d.path)).toContain('actions.0.scheduled_for');
    expect(store.count('plans')).toBe(before);
  });
});
