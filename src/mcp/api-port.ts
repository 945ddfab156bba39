import type { EndpointName } from '../contracts/endpoints.js';
import { wholeAnswer } from '../platform/whole-answer.js';

/** One request to the kairos API, as the MCP tools make it: values already parsed by the endpoint's schemas. */
export interface PortArgs {
  query?: Record<string, unknown>;
  body?: unknown;
  params?: Record<string, string>;
}

/**
 * How the MCP server reaches the API: over HTTP with the agent's key (`kairos mcp` on stdio), or
 * through the daemon's own route table with the caller's credential (`/mcp`). Either way every
 * call passes the route's permission and schemas, and a refusal is an AppError with the
 * contract's status, code and message. Results are plain JSON.
 */
export interface ApiPort {
  call(name: EndpointName, args?: PortArgs): Promise<unknown>;
}

/** Every page of a paged GET in one answer, its items under `key` (contracts/page.ts `wholeAnswer`). */
export const callWhole = <T>(port: ApiPort, name: EndpointName, key: string, query: Record<string, unknown>): Promise<T> =>
  wholeAnswer(
    key,
    async (cursor) => (await port.call(name, { query: { ...query, ...(cursor ? { cursor } : {}) } })) as { [k: string]: unknown[] },
  ) as Promise<T>;
