import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthProxy } from '../helpers/auth-proxy.js';
import { BIN, cleanEnv, cliEnv, ROOT, useDaemon } from '../helpers/daemon.js';
import { connectMcpHttp } from '../helpers/mcp-http-client.js';

/**
 * Clients nobody here wrote: the MCP Inspector's CLI (`@modelcontextprotocol/inspector-cli`, the
 * code `npx @modelcontextprotocol/inspector --cli` runs) against `kairos mcp` on stdio and the
 * daemon's `/mcp`, listing every tool and calling each one. The Inspector types each `key=value`
 * argument by the tool's schema (a `boolean` property gets JSON `false`), so a flag published as
 * a string enum reaches the server as a string, and a published `type: [..]` array is what strict
 * clients refuse.
 */
const d = useDaemon();
const INSPECTOR = join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build', 'index.js');
const TOOL_NAMES = [
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
];

function inspector(target: string[], args: string[]): Promise<any> {
  const child = spawn(process.execPath, [INSPECTOR, ...target, ...args], { env: cleanEnv(cliEnv(d)), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  return new Promise((ok, fail) =>
    child.on('exit', (code) => (code === 0 ? ok(JSON.parse(out)) : fail(new Error(`inspector ${args.join(' ')} exited ${code}: ${err}${out}`)))),
  );
}

/** Every `type` array in a JSON Schema, by path. */
function typeArrays(node: unknown, path = ''): string[] {
  if (!node || typeof node !== 'object') return [];
  const own = Array.isArray((node as { type?: unknown }).type) ? [path] : [];
  return [...own, ...Object.entries(node).flatMap(([k, v]) => typeArrays(v, `${path}.${k}`))];
}

let proxy: Awaited<ReturnType<typeof startAuthProxy>>;
let uid: string;
let planId: string;
beforeAll(async () => {
  proxy = await startAuthProxy(d.port, d.key);
  const pushed = await d.api('POST', '/memory/push', {
    body: { traces: [{ type: 'observation', task_id: 'inspector', content: 'Deep work goes best before noon' }] },
  });
  uid = pushed.json.saved[0].uid;
  const plan = await d.api('POST', '/agent/plan', {
    body: { actions: [{ kind: 'reflect', content: 'Mornings are for deep work', task_id: 'inspector' }], task_id: 'inspector' },
  });
  expect(plan.status, plan.text).toBe(201);
  planId = plan.json.plan_id;
});
afterAll(() => proxy?.close());

/** One call per tool, each argument as the Inspector's `key=value` (typed by the tool's schema). */
const calls = (): Record<string, string[]> => ({
  memory_search: ['query=deep work', 'include_expired=false', 'limit=5'],
  memory_pull: ['task_id=inspector', 'include_expired=false', 'limit=5'],
  memory_push: [`traces=${JSON.stringify([{ type: 'observation', task_id: 'inspector', content: 'Called through the Inspector' }])}`],
  memory_history: [`uid=${uid}`],
  calendar_events: ['start=2031-05-05', 'end=2031-05-12', 'expand=false'],
  calendar_free_slots: ['start=2031-05-05T08:00:00Z', 'end=2031-05-05T18:00:00Z', 'min_minutes=30'],
  tempo_profile: [],
  plan_propose: [`actions=${JSON.stringify([{ kind: 'reflect', content: 'Proposed through the Inspector', task_id: 'inspector' }])}`],
  plan_status: [`plan_id=${planId}`],
  context_export: ['export_format=summary', 'include_feedback=false', 'include_expired=false'],
});

describe.each([
  ['kairos mcp (stdio)', () => [process.execPath, BIN, 'mcp']],
  ['the daemon’s /mcp', () => [proxy.url('/mcp')]],
])('the MCP Inspector CLI against %s', (_name, target) => {
  it('lists every tool with boolean flags and no type arrays, and calls each one with typed arguments', async () => {
    const { tools } = await inspector(target(), ['--method', 'tools/list']);
    expect(tools.map((t: { name: string }) => t.name).sort()).toEqual(TOOL_NAMES);
    for (const t of tools) {
      expect(typeArrays(t.inputSchema), `${t.name} input`).toEqual([]);
      expect(typeArrays(t.outputSchema), `${t.name} output`).toEqual([]);
      expect(JSON.stringify(t.inputSchema), t.name).not.toMatch(/"enum":\[[^\]]*"true"/);
    }
    const props = (name: string) => tools.find((t: { name: string }) => t.name === name).inputSchema.properties;
    expect(props('calendar_events').expand.type).toBe('boolean');
    expect(props('memory_pull').include_expired.type).toBe('boolean');
    expect(props('memory_search').include_expired.type).toBe('boolean');
    expect(props('context_export').include_feedback.type).toBe('boolean');
    expect(props('context_export').include_expired.type).toBe('boolean');

    for (const [tool, args] of Object.entries(calls())) {
      const r = await inspector(target(), ['--method', 'tools/call', '--tool-name', tool, ...(args.length ? ['--tool-arg', ...args] : [])]);
      expect(r.isError, `${tool}: ${JSON.stringify(r.content)}`).toBeFalsy();
      expect(r.structuredContent, tool).toBeTypeOf('object');
    }
  }, 300_000);
});

describe('flags from clients that send JSON booleans, and from lenient ones that send words', () => {
  it('takes false, "false" and "0" alike, and refuses a word that is not a flag', async () => {
    await d.api('POST', '/calendar/create', {
      body: { title: 'Standup', scheduled_for: '2031-05-05T09:00:00Z', duration_minutes: 15, rrule: 'FREQ=DAILY;COUNT=3' },
    });
    const client = await connectMcpHttp(d.base, d.key, {}, 'flags-test');
    try {
      const list = async (expand: unknown) => {
        const r = await client.callTool({ name: 'calendar_events', arguments: { start: '2031-05-04', end: '2031-05-10', expand } });
        expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
        return (r.structuredContent as { events: unknown[] }).events.length;
      };
      expect(await list(true)).toBe(3);
      expect(await list(false)).toBe(1);
      expect(await list('false')).toBe(1);
      expect(await list('0')).toBe(1);
      expect(await list('1')).toBe(3);
      const refused = await client
        .callTool({ name: 'calendar_events', arguments: { expand: 'maybe' } })
        .then((r) => JSON.stringify(r.content))
        .catch((e: Error) => e.message);
      expect(refused).toMatch(/expand/);
      const pulled = await client.callTool({ name: 'memory_pull', arguments: { include_expired: false, limit: 5 } });
      expect(pulled.isError, JSON.stringify(pulled.content)).toBeFalsy();
    } finally {
      await client.close();
    }
  }, 60_000);
});
