import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../helpers/in-process.js';
import { MCP_INIT, mcpPost } from '../helpers/mcp-raw.js';

/**
 * Who may name an agent with `X-Agent-ID`: a key minted for that agent (its own name only), a
 * key with `admin`, or a login token (a person acting through an agent). A key minted for no
 * agent may not: it would record its writes as any agent's and sidestep per-agent budgets.
 */
const app = useApp();

const mint = async (body: Record<string, unknown>) => {
  const r = await app.api('POST', '/auth/keys', { body: { name: 'agent-test', scopes: ['memory:read', 'memory:write', 'agent:plan'], ...body } });
  expect(r.status, r.text).toBe(201);
  return r.json.key as string;
};
const push = (key: string, agent: string, content: string) =>
  app.api('POST', '/memory/push', { key, headers: { 'x-agent-id': agent }, body: { traces: [{ type: 'observation', task_id: 'agent-id', content }] } });
const authorOf = async (content: string, key = app.key) =>
  ((await app.api('GET', '/memory/pull?task_id=agent-id&limit=100', { key })).json.traces as { content: string; authored_by: string }[]).find(
    (t) => t.content === content,
  )?.authored_by;

let token: string;
beforeAll(async () => {
  const reg = await app.api('POST', '/user/register', { body: { email: 'person@example.com', password: 'correct horse battery', display_name: 'P' } });
  expect(reg.status, reg.text).toBe(201);
  token = (await app.api('POST', '/user/login', { key: null, body: { email: 'person@example.com', password: 'correct horse battery' } })).json.token;
});

describe('X-Agent-ID', () => {
  it('on a key without an agent and without admin: 403 forbidden, nothing written', async () => {
    const plain = await mint({});
    const r = await push(plain, 'claude', 'claimed by a plain key');
    expect(r.status, r.text).toBe(403);
    expect(r.json.error.code).toBe('forbidden');
    expect(r.json.error.message).toMatch(/X-Agent-ID/);
    expect(await authorOf('claimed by a plain key')).toBeUndefined();
    // Without the header the same key works, as itself.
    expect((await push(plain, '', 'plain, no header')).status).toBe(201);
    // The plan queue and /mcp refuse it the same way.
    const plan = await app.api('POST', '/agent/plan', {
      key: plain,
      headers: { 'x-agent-id': 'claude' },
      body: { actions: [{ kind: 'add_event', title: 'x', scheduled_for: '2031-01-01T10:00:00Z', duration_minutes: 30 }] },
    });
    expect(plan.status, plan.text).toBe(403);
    expect((await mcpPost(app.base, plain, MCP_INIT, { 'x-agent-id': 'claude' })).status).toBe(403);
  });

  it('on a key minted for that agent: accepted; another agent’s name: 403', async () => {
    const bound = await mint({ agent_id: 'planner-bot' });
    expect((await push(bound, 'planner-bot', 'by the bound agent')).status).toBe(201);
    expect(await authorOf('by the bound agent')).toBe('planner-bot');
    expect((await push(bound, 'claude', 'by another name')).status).toBe(403);
  });

  it('on an admin key, or a login token of a user without admin (a person): accepted, and recorded as the agent', async () => {
    expect((await push(app.key, 'claude', 'by admin for claude')).status).toBe(201);
    expect(await authorOf('by admin for claude')).toBe('claude');
    expect((await push(token, 'cursor', 'by a person through cursor')).status).toBe(201);
    expect(await authorOf('by a person through cursor', token)).toBe('cursor');
  });
});
