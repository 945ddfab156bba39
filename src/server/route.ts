import type { Context } from 'koa';
import type { z } from 'zod';
import type { Scope } from '../contracts/scopes.js';
import type { Principal } from '../domain/principal.js';
import type { Services } from './services.js';

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface HandlerArgs<B, Q, P> {
  body: B;
  /** The body as text when it came in one of `rawBodyTypes` (then `body` is undefined). */
  raw?: string;
  query: Q;
  params: P;
  /** Absent only on routes with `auth: 'none'`. */
  principal: Principal;
  services: Services;
  ctx: Context;
}

/**
 * One endpoint: its schemas validate the request, type the handler and generate /openapi.json.
 * The handler returns the response body; the wrapper sets the status.
 */
export interface RouteDef<B = unknown, Q = unknown, P = unknown> {
  method: Method;
  /** OpenAPI form, e.g. `/auth/keys/{id}/rotate`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** `'none'`: public; `'user'`: any valid credential; a scope: that scope (admin implies all). */
  auth: 'none' | 'user' | Scope;
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
  response?: z.ZodType;
  status?: number;
  /** Non-JSON request bodies this route also takes (e.g. `text/calendar`); they arrive as a string. */
  rawBodyTypes?: string[];
  /** Response content type when it is not JSON (e.g. `text/calendar`). */
  produces?: string;
  /** Largest accepted body in bytes (default 1 MiB). */
  bodyLimit?: number;
  /** Answered only when the daemon runs with DEBUG=true. */
  debugOnly?: boolean;
  handler: (args: HandlerArgs<B, Q, P>) => unknown | Promise<unknown>;
}

/** Identity helper that keeps the handler's parameter types tied to the schemas. */
export function route<B = undefined, Q = undefined, P = undefined>(def: RouteDef<B, Q, P>): RouteDef {
  return def as unknown as RouteDef;
}
