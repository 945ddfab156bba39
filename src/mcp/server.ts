import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { EndpointName } from '../contracts/endpoints.js';
import { AppError } from '../errors.js';
import type { ApiPort } from './api-port.js';
import type { Caller } from './caller.js';
import { PROMPTS, renderPrompt } from './prompts.js';
import { FIXED_RESOURCES, TEMPLATE_RESOURCES } from './resources.js';
import { TOOLS } from './tools.js';

/** A committed change, as the daemon announces it on `/ws` (src/domain/live-bus.ts). */
export interface Change {
  type: string;
  data: unknown;
}
/** Follow the caller's changes; returns how to stop. */
export type ChangeFeed = (fn: (c: Change) => void) => () => void;

interface AuthSpec {
  public?: true;
  any_of?: string[];
}

const INSTRUCTIONS = `kairos keeps this person's memory and calendar. You may read both and record what you observe
(memory_push). You never change the calendar yourself: propose with plan_propose, and the person approves or
rejects it in kairos review; check the outcome with plan_status. Read tempo_profile first and respect its rules.`;

/** Whether a credential with `scopes` passes the route of `name` (the route table, as /openapi.json publishes it). */
export function allowedBy(openapi: unknown, name: EndpointName, scopes: readonly string[]): boolean {
  const space = name.indexOf(' ');
  const paths = (openapi as { paths?: Record<string, Record<string, Record<string, unknown>>> }).paths ?? {};
  const auth = paths[name.slice(space + 1)]?.[name.slice(0, space).toLowerCase()]?.['x-kairos-auth'] as AuthSpec | undefined;
  if (!auth) return false;
  if (auth.public) return true;
  return scopes.includes('admin') || (auth.any_of ?? []).some((s) => scopes.includes(s));
}

/** A refusal of the API as a tool result: the contract's envelope in the text, `isError` set. */
export function toolError(e: unknown) {
  const error =
    e instanceof AppError
      ? { code: e.code, message: e.expose ? e.message : 'Internal error.', ...(e.details ? { details: e.details } : {}) }
      : e instanceof RangeError
        ? { code: 'validation_failed', message: e.message }
        : { code: 'internal', message: 'Internal error.' };
  return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify({ error }) }] };
}

const json = (uri: string, data: unknown) => ({ contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(data, null, 2) }] });

/**
 * The kairos MCP server for one credential: the tools, resources and prompts its scopes allow
 * (decided by the same route table as the HTTP API), calling the API through `port`. With a
 * change feed, subscribed resources get `notifications/resources/updated` and new traces a
 * `list_changed`.
 */
export async function createMcpServer(
  port: ApiPort,
  o: { version: string; changes?: ChangeFeed },
): Promise<{ server: McpServer; caller: Caller; close: () => void }> {
  const caller = (await port.call('GET /auth/whoami')) as Caller;
  const openapi = await port.call('GET /openapi.json');
  const may = (name: EndpointName) => allowedBy(openapi, name, caller.scopes);
  const server = new McpServer(
    { name: 'kairos', title: 'kairos — memory and calendar, with the person approving', version: o.version },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
        logging: {},
      },
      instructions: INSTRUCTIONS,
    },
  );

  for (const t of TOOLS.filter((t) => may(t.endpoint))) {
    server.registerTool(
      t.name,
      { title: t.title, description: t.description, inputSchema: t.input, outputSchema: t.output, annotations: { title: t.title, ...t.annotations } },
      async (args: unknown) => {
        try {
          const out = (await t.run(port, args as Record<string, unknown>, caller)) as Record<string, unknown>;
          return { content: [{ type: 'text' as const, text: JSON.stringify(out) }], structuredContent: out };
        } catch (e) {
          const refused = toolError(e);
          // The client's log (at the level it set with logging/setLevel) says why, too.
          void server
            .sendLoggingMessage({ level: 'warning', logger: 'kairos', data: { tool: t.name, ...JSON.parse(refused.content[0]!.text) } })
            .catch(() => {});
          return refused;
        }
      },
    );
  }

  for (const r of FIXED_RESOURCES.filter((r) => may(r.endpoint))) {
    server.registerResource(r.name, r.uri, { title: r.title, description: r.description, mimeType: 'application/json' }, async (uri) =>
      json(uri.href, await r.read(port, caller)),
    );
  }
  const canPull = may('GET /memory/pull');
  const completeTask = (value: unknown) => (canPull ? taskIdsStartingWith(port, typeof value === 'string' ? value : '') : Promise.resolve([]));
  for (const r of TEMPLATE_RESOURCES.filter((r) => may(r.endpoint))) {
    const list = r.list;
    const template = new ResourceTemplate(r.template, {
      list: list && canPull ? async () => ({ resources: (await list(port, caller)).map((x) => ({ ...x, mimeType: 'application/json' })) }) : undefined,
      complete: { task_id: completeTask },
    });
    server.registerResource(r.name, template, { title: r.title, description: r.description, mimeType: 'application/json' }, async (uri, vars) =>
      json(uri.href, await r.read(port, caller, Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, String(Array.isArray(v) ? v[0] : v)])))),
    );
  }

  if (may('GET /context/export')) {
    for (const p of PROMPTS) {
      const argsSchema = Object.fromEntries(Object.entries(p.args).map(([k, v]) => [k, k === 'task_id' ? completable(v.clone(), completeTask) : v]));
      server.registerPrompt(p.name, { title: p.title, description: p.description, argsSchema }, (args: Record<string, string | undefined>) =>
        renderPrompt(p, port, caller, args),
      );
    }
  }

  const subscribed = new Set<string>();
  server.server.setRequestHandler(SubscribeRequestSchema, async (req) => {
    subscribed.add(req.params.uri);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    subscribed.delete(req.params.uri);
    return {};
  });
  const stop = o.changes?.((c) => {
    const uris = affected(c);
    if (c.type === 'trace.created') void server.server.sendResourceListChanged().catch(() => {});
    for (const uri of uris) if (subscribed.has(uri)) void server.server.sendResourceUpdated({ uri }).catch(() => {});
  });
  return { server, caller, close: () => stop?.() };
}

/** Task ids of recent traces that start with `prefix` (completion of a task_id argument). */
async function taskIdsStartingWith(port: ApiPort, prefix: string): Promise<string[]> {
  const p = (await port.call('GET /memory/pull', { query: { limit: '1000' } })) as { traces: { task_id: string }[] };
  return [...new Set(p.traces.map((t) => t.task_id))].filter((t) => t.startsWith(prefix)).slice(0, 100);
}

/** The resource URIs a change makes stale. */
function affected(c: Change): string[] {
  const d = (c.data ?? {}) as { trace?: { uid?: string; task_id?: string }; uid?: string; task_id?: string };
  if (c.type.startsWith('event.')) return ['kairos://calendar/today', 'kairos://calendar/week'];
  if (c.type.startsWith('trace.')) {
    const t = d.trace ?? d;
    return ['kairos://context/summary', ...(t.uid ? [`kairos://trace/${t.uid}`] : []), ...(t.task_id ? [`kairos://task/${t.task_id}/context`] : [])];
  }
  return [];
}
