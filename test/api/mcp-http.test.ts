import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useApp } from '../helpers/in-process.js';
import { connectMcpHttp } from '../helpers/mcp-http-client.js';

/**
 * Issue 20: the daemon's MCP endpoint, driven by the SDK's own client over streamable HTTP. Every
 * tool is called and checked against the HTTP API; scopes decide what a key sees; nothing an
 * agent can reach approves a plan.
 */
const d = useApp();
const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => {})));
});

async function connect(key: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = await connectMcpHttp(d.base, key, headers);
  open.push(client);
  return client;
}

const agentKey = async (scopes: string[], agent = 'claude') => {
  const r = await d.api('POST', '/auth/keys', { body: { name: `mcp ${agent}`, agent_id: agent, scopes } });
  expect(r.status, r.text).toBe(201);
  return r.json as { id: string; key: string };
};

const AGENT_SCOPES = ['memory:read', 'memory:write', 'calendar:read', 'agent:plan', 'tempo:read', 'export:read'];
const text = (r: { content?: unknown }) => ((r.content as { type: string; text: string }[])[0] ?? { text: '' }).text;

describe('MCP over streamable HTTP at /mcp', () => {
  it('lists the tools, resources and prompts an agent key may use, with schemas and annotations', async () => {
    const k = await agentKey(AGENT_SCOPES);
    const c = await connect(k.key);
    const tools = (await c.listTools()).tools;
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'calendar_events',
        'calendar_free_slots',
        'context_export',
        'memory_history',
        'memory_pull',
        'memory_push',
        'memory_search',
        'plan_propose',
        'plan_status',
        'tempo_profile',
      ].sort(),
    );
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.description!.length, t.name).toBeGreaterThan(40);
      expect(typeof t.annotations?.readOnlyHint, t.name).toBe('boolean');
    }
    expect(tools.find((t) => t.name === 'memory_search')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tools.find((t) => t.name === 'plan_propose')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    const resources = (await c.listResources()).resources.map((r) => r.uri);
    expect(resources).toEqual(expect.arrayContaining(['kairos://calendar/today', 'kairos://calendar/week', 'kairos://context/summary']));
    const templates = (await c.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(templates.sort()).toEqual(['kairos://task/{task_id}/context', 'kairos://trace/{uid}']);
    expect((await c.listPrompts()).prompts.map((p) => p.name).sort()).toEqual(['catch_up', 'ground_full', 'ground_linked', 'ground_summary']);
  });

  it('shows a key only the tools its scopes allow, and no way to approve', async () => {
    const reader = await agentKey(['calendar:read'], 'cal-only');
    const c = await connect(reader.key);
    expect((await c.listTools()).tools.map((t) => t.name).sort()).toEqual(['calendar_events', 'calendar_free_slots']);
    expect((await c.listPrompts().catch(() => ({ prompts: [] }))).prompts).toEqual([]);
    const forbidden = await c.callTool({ name: 'memory_push', arguments: { traces: [{ type: 'observation', task_id: 't', content: 'x' }] } });
    expect(forbidden.isError).toBe(true);
    // An owner key sees every tool, and still none approves, rejects or executes.
    const owner = await connect(d.key);
    const names = (await owner.listTools()).tools.map((t) => t.name);
    expect(names.filter((n) => /approve|reject|execute/.test(n))).toEqual([]);
    expect(names).toHaveLength(10);
  });

  it('calls every tool; the answers match the HTTP API, writes are authored by the agent', async () => {
    const k = await agentKey(AGENT_SCOPES, 'claude-desktop');
    const c = await connect(k.key);
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await c.callTool({ name, arguments: args });
      expect(r.isError, `${name}: ${text(r)}`).toBeFalsy();
      expect(JSON.parse(text(r))).toEqual(r.structuredContent);
      return r.structuredContent as any;
    };

    const pushed = await call('memory_push', {
      traces: [{ type: 'observation', task_id: 'mcp-task', content: 'The quarterly report needs the Q3 revenue table', importance: 4 }],
    });
    const uid = pushed.saved[0].uid;
    const viaHttp = await d.api('GET', '/memory/pull?task_id=mcp-task');
    expect(viaHttp.json.traces[0]).toMatchObject({ uid, authored_by: 'claude-desktop' });
    expect(await call('memory_pull', { task_id: 'mcp-task' })).toEqual(viaHttp.json);
    const found = await call('memory_search', { query: 'quarterly revenue table', mode: 'keyword' });
    expect(found.results.map((r: { uid: string }) => r.uid)).toContain(uid);
    expect((await call('memory_history', { uid })).versions).toHaveLength(1);

    await d.api('POST', '/calendar/create', { body: { title: 'Standup', scheduled_for: '2031-03-03T09:00:00Z', duration_minutes: 30, timezone: 'UTC' } });
    const events = await call('calendar_events', { start: '2031-03-03T00:00:00Z', end: '2031-03-04T00:00:00Z' });
    expect(events).toEqual((await d.api('GET', '/calendar/events?start=2031-03-03T00:00:00Z&end=2031-03-04T00:00:00Z')).json);
    const free = await call('calendar_free_slots', { start: '2031-03-03T08:00:00Z', end: '2031-03-03T12:00:00Z', min_minutes: 30 });
    expect(free.slots).toEqual([
      { start: '2031-03-03T08:00:00.000Z', end: '2031-03-03T09:00:00.000Z', minutes: 60 },
      { start: '2031-03-03T09:30:00.000Z', end: '2031-03-03T12:00:00.000Z', minutes: 150 },
    ]);
    expect(await call('tempo_profile', {})).toEqual((await d.api('GET', '/tempo/profile')).json);
    const exp = await call('context_export', { export_format: 'full', task_id: 'mcp-task' });
    expect(exp.results.map((t: { uid: string }) => t.uid)).toContain(uid);

    const ws = new WebSocket(`${d.base.replace('http', 'ws')}/ws`, { headers: { authorization: `Bearer ${d.key}` } });
    const live: { type: string; data: { plan_id?: string } }[] = [];
    ws.on('message', (m) => live.push(JSON.parse(String(m))));
    await new Promise((ok) => ws.once('open', ok));
    const plan = await call('plan_propose', {
      reasoning: 'Block time for the report',
      actions: [{ kind: 'add_event', title: 'Write the Q3 report', scheduled_for: '2031-03-03T10:00:00Z', duration_minutes: 60, task_id: 'mcp-task' }],
    });
    expect(plan.status).toBe('proposed');
    const queue = await d.api('GET', '/agent/queue');
    expect(queue.json.plans.map((p: { plan_id: string }) => p.plan_id)).toContain(plan.plan_id);
    expect((await call('plan_status', { plan_id: plan.plan_id })).status).toBe('proposed');
    for (let i = 0; i < 50 && !live.some((m) => m.type === 'plan.proposed'); i++) await new Promise((r) => setTimeout(r, 100));
    ws.close();
    expect(live.find((m) => m.type === 'plan.proposed')?.data.plan_id).toBe(plan.plan_id);

    // task_id arguments complete from memory.
    const done = await c.complete({ ref: { type: 'ref/prompt', name: 'ground_full' }, argument: { name: 'task_id', value: 'mcp-' } });
    expect(done.completion.values).toContain('mcp-task');
  });

  it('turns the API’s refusals into tool errors with the contract’s code; the daemon stays up', async () => {
    const k = await agentKey(AGENT_SCOPES);
    const c = await connect(k.key);
    const missing = await c.callTool({ name: 'plan_status', arguments: { plan_id: 'pl_nope' } });
    expect(missing.isError).toBe(true);
    expect(JSON.parse(text(missing)).error.code).toBe('not_found');
    const wrongType = await c.callTool({ name: 'memory_search', arguments: { query: 42 } });
    expect(wrongType.isError).toBe(true);
    const unknown = await c.callTool({ name: 'approve_everything', arguments: {} });
    expect(unknown.isError).toBe(true);
    const huge = await c.callTool({ name: 'memory_search', arguments: { query: 'x'.repeat(5000) } });
    expect(huge.isError).toBe(true);
    expect((await d.api('GET', '/health')).status).toBe(200);
  });

  it('reads the agenda, a trace and a task context as resources, and renders a prompt', async () => {
    const c = await connect(d.key);
    const today = await c.readResource({ uri: 'kairos://calendar/today' });
    expect(JSON.parse((today.contents[0] as { text: string }).text)).toHaveProperty('events');
    const pushed = await d.api('POST', '/memory/push', {
      body: { traces: [{ type: 'reflection', task_id: 'res-task', content: 'Mornings work best for writing' }] },
    });
    const uid = pushed.json.saved[0].uid;
    const trace = JSON.parse(((await c.readResource({ uri: `kairos://trace/${uid}` })).contents[0] as { text: string }).text);
    expect(trace).toMatchObject({ uid, content: 'Mornings work best for writing', task_id: 'res-task' });
    const ctx = JSON.parse(((await c.readResource({ uri: 'kairos://task/res-task/context' })).contents[0] as { text: string }).text);
    expect(ctx.export_format).toBe('linked');
    const prompt = await c.getPrompt({ name: 'ground_full', arguments: { task_id: 'res-task' } });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain('Mornings work best for writing');
  });

  it('notifies a subscriber when a subscribed resource changes (the /ws commit feed)', async () => {
    const c = await connect(d.key);
    const updated: string[] = [];
    c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    await c.subscribeResource({ uri: 'kairos://calendar/today' });
    await d.api('POST', '/calendar/create', { body: { title: 'Ping', scheduled_for: new Date(Date.now() + 3_600_000).toISOString() } });
    for (let i = 0; i < 50 && !updated.length; i++) await new Promise((r) => setTimeout(r, 100));
    expect(updated).toContain('kairos://calendar/today');
  });

  it('refuses a foreign Origin (403), a missing or revoked key (401) — mid-session too', async () => {
    const k = await agentKey(['memory:read']);
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(`${d.base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(init),
      });
    const foreign = await post({ authorization: `Bearer ${k.key}`, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).error.code).toBe('forbidden_origin');
    expect((await post({ authorization: `Bearer ${k.key}`, origin: 'http://localhost:5173' })).status).toBe(200);
    const none = await post({});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);

    const c = await connect(k.key);
    expect((await c.listTools()).tools.length).toBeGreaterThan(0);
    expect((await d.api('DELETE', `/auth/keys/${k.id}`)).status).toBe(200);
    await expect(c.listTools()).rejects.toThrow(/401|unknown, revoked/i);
    expect((await d.api('GET', '/health')).status).toBe(200);
  });
});
