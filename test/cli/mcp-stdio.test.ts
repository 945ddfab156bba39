import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, cliEnv, runCli, useDaemon } from '../helpers/daemon.js';
import { snippetToolNames } from '../helpers/mcp-snippet.js';

/**
 * Issue 20: `kairos mcp` on stdio, as a desktop client starts it, driven by the SDK's own stdio
 * client: it talks to the daemon with the agent's key, stdout carries only protocol messages
 * (the SDK client fails on anything else), and a proposal lands in the person's queue and on /ws.
 */
const d = useDaemon();

async function stdioClient(key: string, extraArgs: string[] = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...extraArgs],
    env: cleanEnv(cliEnv(d, { KAIROS_API_KEY: key })) as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'kairos-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('kairos mcp (stdio)', () => {
  it('offers the key’s tools, calls them against the daemon, and queues a proposal without approving it', async () => {
    const k = await d.api('POST', '/auth/keys', {
      body: { name: 'desktop', agent_id: 'desktop-agent', scopes: ['memory:read', 'memory:write', 'calendar:read', 'agent:plan'] },
    });
    const c = await stdioClient(k.json.key);
    try {
      const names = (await c.listTools()).tools.map((t) => t.name).sort();
      expect(names).toEqual([
        'calendar_events',
        'calendar_free_slots',
        'memory_history',
        'memory_pull',
        'memory_push',
        'memory_search',
        'plan_propose',
        'plan_status',
      ]);
      const pushed = await c.callTool({
        name: 'memory_push',
        arguments: { traces: [{ type: 'observation', task_id: 'stdio', content: 'Prefers mornings for deep work' }] },
      });
      expect(pushed.isError, JSON.stringify(pushed.content)).toBeFalsy();
      const pulled = await d.api('GET', '/memory/pull?task_id=stdio');
      expect(pulled.json.traces[0]).toMatchObject({ content: 'Prefers mornings for deep work', authored_by: 'desktop-agent' });

      const updated: string[] = [];
      c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
      await c.subscribeResource({ uri: 'kairos://calendar/week' }).catch(() => {});
      const plan = await c.callTool({
        name: 'plan_propose',
        arguments: { actions: [{ kind: 'add_event', title: 'Deep work', scheduled_for: '2031-05-05T07:00:00Z', duration_minutes: 90, task_id: 'stdio' }] },
      });
      expect(plan.isError, JSON.stringify(plan.content)).toBeFalsy();
      const planId = (plan.structuredContent as { plan_id: string }).plan_id;
      const queued = await d.api('GET', '/agent/queue');
      expect(queued.json.plans.find((p: { plan_id: string }) => p.plan_id === planId)).toMatchObject({ status: 'proposed' });
      // The agent cannot approve: no tool does it, and its key is refused by the route.
      const approve = await d.api('POST', '/agent/approve', { key: k.json.key, body: { plan_id: planId } });
      expect(approve.status).toBe(403);
    } finally {
      await c.close();
    }
  }, 60_000);

  it('a refused call is a tool error with the contract’s code; a bad key fails the start with a clear message', async () => {
    const k = await d.api('POST', '/auth/keys', { body: { name: 'reader', scopes: ['memory:read'] } });
    const c = await stdioClient(k.json.key);
    try {
      const r = await c.callTool({ name: 'memory_history', arguments: { uid: 'tr_missing' } });
      expect(r.isError).toBe(true);
      expect(JSON.parse((r.content as { text: string }[])[0]!.text).error.code).toBe('not_found');
    } finally {
      await c.close();
    }
    await expect(stdioClient('kairos_sk_not_a_key')).rejects.toThrow();
  }, 60_000);

  it('a client that connects and leaves at once gets its answer and no WebSocket warning', async () => {
    const k = await d.api('POST', '/auth/keys', { body: { name: 'quick', scopes: ['memory:read'] } });
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'quick', version: '1' } },
    };
    for (let i = 0; i < 3; i++) {
      // stdin ends right after the request: the server answers and stops while /ws is still connecting.
      const r = await runCli(['mcp'], { env: cliEnv(d, { KAIROS_API_KEY: k.json.key }), input: `${JSON.stringify(initialize)}\n` });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout.split('\n')[0]!)).toMatchObject({ id: 1, result: { serverInfo: { name: 'kairos' } } });
      expect(r.stderr).not.toMatch(/WebSocket|live updates/);
    }
  }, 90_000);

  it('keys create --mcp-config prints a snippet that a client can start as written; the agent key cannot approve', async () => {
    for (const client of ['claude', 'cursor', 'vscode', 'generic']) {
      const r = await runCli(['keys', 'create', `mcp-${client}`, '--agent', `agent-${client}`, '--mcp-config', client], { env: cliEnv(d) });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('kairos_sk_');
      expect(r.stdout).toMatch(client === 'generic' ? /streamable HTTP/ : /mcp\.json|claude_desktop_config/);
    }
    const r = await runCli(['--json', 'keys', 'create', 'desk', '--agent', 'desk', '--mcp-config', 'claude'], { env: cliEnv(d) });
    expect(r.code, r.stderr).toBe(0);
    const minted = JSON.parse(r.stdout);
    expect(minted.scopes).not.toContain('agent:approve');
    expect(minted.scopes).not.toContain('agent:execute');
    const server = minted.mcp_config.mcpServers.kairos;
    expect(server.env.KAIROS_API_KEY).toBe(minted.key);
    // Start it exactly as the snippet says (the daemon is found through KAIROS_HOME's daemon.json).
    expect(await snippetToolNames(server, { KAIROS_HOME: d.home })).toContain('plan_propose');
    const noScopes = await runCli(['keys', 'create', 'x'], { env: cliEnv(d) });
    expect(noScopes.code).toBe(2);
    expect(noScopes.stderr).toMatch(/--scopes/);
  }, 90_000);
});
