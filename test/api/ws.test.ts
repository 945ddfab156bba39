import { beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { useApp } from '../helpers/in-process.js';

const d = useApp();
let otherToken: string;

beforeAll(async () => {
  await d.api('PATCH', '/user/update', { body: { user_id: d.userId, updates: { timezone: 'UTC' } } });
  const reg = await d.api('POST', '/user/register', { body: { email: 'other@example.com', password: 'correct horse', display_name: 'Other' } });
  expect(reg.status, reg.text).toBe(201);
  otherToken = (await d.api('POST', '/user/login', { key: null, body: { email: 'other@example.com', password: 'correct horse' } })).json.token;
});

interface Msg {
  id: string;
  type: string;
  at: string;
  data: any;
  error?: { code: string; message: string };
}

interface Client {
  ws: WebSocket;
  msgs: Msg[];
  closed: Promise<{ code: number; reason: string }>;
  waitFor(pred: (m: Msg) => boolean, ms?: number): Promise<Msg>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function connect(opts: { key?: string; query?: string } = {}): Promise<Client> {
  const ws = new WebSocket(
    `${d.base.replace('http', 'ws')}/ws${opts.query ?? ''}`,
    opts.key === undefined ? { headers: { authorization: `Bearer ${d.key}` } } : opts.key ? { headers: { authorization: `Bearer ${opts.key}` } } : {},
  );
  const msgs: Msg[] = [];
  ws.on('message', (m) => msgs.push(JSON.parse(String(m))));
  const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: String(reason) })));
  await new Promise<void>((ok, fail) => {
    ws.once('open', () => ok());
    ws.once('error', fail);
  });
  await sleep(50);
  return {
    ws,
    msgs,
    closed,
    async waitFor(pred, ms = 3000) {
      const until = Date.now() + ms;
      for (;;) {
        const hit = msgs.find(pred);
        if (hit) return hit;
        if (Date.now() > until) throw new Error(`no matching message; got ${JSON.stringify(msgs.map((m) => m.type))}`);
        await sleep(20);
      }
    },
  };
}

/** The HTTP status a refused upgrade answers. */
function refusedWith(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body }));
    });
    ws.on('open', () => fail(new Error('the upgrade was accepted')));
    ws.on('error', () => {});
  });
}

const action = (title: string, at: string) => ({ kind: 'add_event', title, scheduled_for: at, duration_minutes: 30 });

describe('live sync over /ws', () => {
  it('pushes every plan, trace and event change to the owner, in commit order, as {id, type, at, data}', async () => {
    const me = await connect();
    const other = await connect({ key: otherToken });

    const p = await d.api('POST', '/agent/plan', { body: { task_id: 'ws', actions: [action('Call mum', '2031-03-01T10:00:00Z')] } });
    expect(p.status, p.text).toBe(201);
    const a = await d.api('POST', '/agent/approve', { body: { plan_id: p.json.plan_id, execute: true } });
    expect(a.status, a.text).toBe(200);
    const eventUid = a.json.execution.results[0].event.uid;
    const e = await d.api('PATCH', '/calendar/edit', { body: { uid: eventUid, updates: { title: 'Call mum (long)' } } });
    expect(e.status, e.text).toBe(200);
    await me.waitFor((m) => m.type === 'plan.edited');

    for (const m of me.msgs) {
      expect(Object.keys(m).sort()).toEqual(['at', 'data', 'id', 'type']);
      expect(m.at).toMatch(/Z$/);
    }
    expect(new Set(me.msgs.map((m) => m.id)).size).toBe(me.msgs.length);
    const seq = me.msgs.map((m) => `${m.type} ${m.data.plan_id ?? m.data.uid}`);
    const pos = (s: string) => {
      const i = seq.indexOf(s);
      expect(i, `${s} in ${seq.join(', ')}`).toBeGreaterThanOrEqual(0);
      return i;
    };
    const plan = p.json.plan_id;
    // The proposal's trace, then the plan; approval, execution, then the edit that moved it to edited.
    expect(pos(`trace.created ${p.json.trace_uid}`)).toBeLessThan(pos(`plan.proposed ${plan}`));
    expect(pos(`plan.proposed ${plan}`)).toBeLessThan(pos(`event.created ${eventUid}`));
    expect(pos(`event.created ${eventUid}`)).toBeLessThan(pos(`plan.approved ${plan}`));
    expect(pos(`trace.updated ${p.json.trace_uid}`)).toBeLessThan(pos(`plan.executed ${plan}`));
    expect(pos(`plan.approved ${plan}`)).toBeLessThan(pos(`plan.executed ${plan}`));
    expect(pos(`plan.executed ${plan}`)).toBeLessThan(pos(`event.updated ${eventUid}`));
    expect(pos(`event.updated ${eventUid}`)).toBeLessThan(pos(`plan.edited ${plan}`));
    expect(me.msgs.filter((m) => m.type.startsWith('plan.')).map((m) => m.type)).toEqual(['plan.proposed', 'plan.approved', 'plan.executed', 'plan.edited']);
    const transitions = me.msgs.filter((m) => m.type === 'trace.created' && m.data.type === 'transition').map((m) => m.data.fields.to);
    expect(transitions).toEqual(['approved', 'executed', 'edited']);
    expect(me.msgs.find((m) => m.type === 'plan.edited')!.data.status).toBe('edited');

    // The other user saw none of it, but does see their own changes.
    await sleep(200);
    expect(other.msgs).toEqual([]);
    const mine = await d.api('POST', '/agent/plan', { key: otherToken, body: { actions: [action('Theirs', '2031-03-02T10:00:00Z')] } });
    expect(mine.status, mine.text).toBe(201);
    await other.waitFor((m) => m.type === 'plan.proposed');
    expect(other.msgs.every((m) => m.data.user_id === undefined || m.data.user_id !== d.userId)).toBe(true);
    await sleep(100);
    expect(me.msgs.some((m) => m.data.plan_id === mine.json.plan_id)).toBe(false);
    me.ws.close();
    other.ws.close();
  });

  it('a subscribe message narrows the topics', async () => {
    const c = await connect();
    c.ws.send(JSON.stringify({ type: 'subscribe', topics: ['plans'] }));
    await sleep(50);
    const p = await d.api('POST', '/agent/plan', { body: { actions: [action('Plans only', '2031-03-03T10:00:00Z')] } });
    await c.waitFor((m) => m.type === 'plan.proposed' && m.data.plan_id === p.json.plan_id);
    await d.api('POST', '/memory/push', { body: { traces: [{ type: 'observation', task_id: 'ws', content: 'not for this socket' }] } });
    await sleep(200);
    expect(c.msgs.map((m) => m.type)).toEqual(['plan.proposed']);
    c.ws.send(JSON.stringify({ type: 'subscribe', topics: ['gossip'] }));
    const err = await c.waitFor((m) => m.type === 'error');
    expect(err.error!.code).toBe('validation_failed');
    c.ws.close();
  });

  it('?topics= narrows the stream from the first message; unknown or unreadable topics are refused', async () => {
    const c = await connect({ query: '?topics=plans' });
    await d.api('POST', '/memory/push', { body: { traces: [{ type: 'observation', task_id: 'ws', content: 'not on the plans topic' }] } });
    const p = await d.api('POST', '/agent/plan', { body: { actions: [action('From the start', '2031-03-05T10:00:00Z')] } });
    await c.waitFor((m) => m.type === 'plan.proposed' && m.data.plan_id === p.json.plan_id);
    expect(c.msgs.map((m) => m.type)).toEqual(['plan.proposed']);
    c.ws.close();
    const url = `${d.base.replace('http', 'ws')}/ws`;
    const auth = { authorization: `Bearer ${d.key}` };
    const bad = await refusedWith(`${url}?topics=plans,gossip`, auth);
    expect(bad.status).toBe(422);
    expect(JSON.parse(bad.body).error.code).toBe('validation_failed');
    const cal = (await d.api('POST', '/auth/keys', { body: { name: 'cal', scopes: ['calendar:read'] } })).json.key;
    expect((await refusedWith(`${url}?topics=traces`, { authorization: `Bearer ${cal}` })).status).toBe(403);
  });

  it('?access_token= authenticates like the header', async () => {
    const c = await connect({ key: '', query: `?access_token=${encodeURIComponent(d.key)}` });
    await d.api('POST', '/memory/push', { body: { traces: [{ type: 'observation', task_id: 'ws', content: 'via query' }] } });
    await c.waitFor((m) => m.type === 'trace.created' && m.data.content === 'via query');
    c.ws.close();
  });

  it.each([
    ['no key', {}],
    ['a bad key', { authorization: 'Bearer kairos_sk_nope' }],
    ['a Basic header', { authorization: 'Basic dXNlcjpwYXNz' }],
  ])('%s → 401 on the upgrade, with the error envelope', async (_what, headers) => {
    const r = await refusedWith(`${d.base.replace('http', 'ws')}/ws`, headers);
    expect(r.status).toBe(401);
    expect(JSON.parse(r.body).error.code).toBe('unauthorized');
  });

  it('a bad access_token → 401; another path → 404', async () => {
    expect((await refusedWith(`${d.base.replace('http', 'ws')}/ws?access_token=nope`)).status).toBe(401);
    expect((await refusedWith(`${d.base.replace('http', 'ws')}/elsewhere`, { authorization: `Bearer ${d.key}` })).status).toBe(404);
  });

  it('a key sees only the topics its scopes read; one that reads none is refused (403)', async () => {
    const mint = async (scopes: string[]) => (await d.api('POST', '/auth/keys', { body: { name: 'ws', scopes } })).json.key as string;
    const cal = await connect({ key: await mint(['calendar:read']) });
    await d.api('POST', '/memory/push', { body: { traces: [{ type: 'observation', task_id: 'ws', content: 'hidden from calendar keys' }] } });
    const ev = await d.api('POST', '/calendar/create', { body: { title: 'Seen', scheduled_for: '2031-03-04T10:00:00Z', duration_minutes: 30 } });
    await cal.waitFor((m) => m.type === 'event.created' && m.data.uid === ev.json.uid);
    await sleep(100);
    expect(cal.msgs.map((m) => m.type)).toEqual(['event.created']);
    cal.ws.send(JSON.stringify({ type: 'subscribe', topics: ['traces'] }));
    expect((await cal.waitFor((m) => m.type === 'error')).error!.code).toBe('forbidden');
    cal.ws.close();
    expect((await refusedWith(`${d.base.replace('http', 'ws')}/ws`, { authorization: `Bearer ${await mint(['export:read'])}` })).status).toBe(403);
  });

  it('revoking the key ends its open connection (close code 4401)', async () => {
    const k = (await d.api('POST', '/auth/keys', { body: { name: 'short-lived', scopes: ['memory:read'] } })).json;
    const c = await connect({ key: k.key });
    expect((await d.api('DELETE', `/auth/keys/${k.id}`)).status).toBe(200);
    await d.api('POST', '/memory/push', { body: { traces: [{ type: 'observation', task_id: 'ws', content: 'after revocation' }] } });
    const closed = await c.closed;
    expect(closed.code).toBe(4401);
    expect(c.msgs.some((m) => m.data?.content === 'after revocation')).toBe(false);
  });
});
