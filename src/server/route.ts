import type { Context } from 'koa';
import type { z } from 'zod';
import type { EndpointSchemas } from '../contracts/endpoints.js';
import type { Scope } from '../contracts/scopes.js';
import type { Principal } from '../domain/principal.js';
import type { Services } from './services.js';

/**
 * The permission a route declares in the table; `admin` implies every scope.
 * - `'none'`: public (no credential).
 * - a scope: a credential holding it.
 * - `{anyOf}`: a credential holding one of them; `keyIn: 'query'` takes the API key from `?key=`
 *   instead of `Authorization` (calendar apps cannot send headers).
 * - `{selfKey}`: `admin` for any key; otherwise an API key acting on itself (the `{id}` path
 *   parameter must be its own id; a list shows only it), if it holds a scope other than
 *   `calendar:feed` — a feed key cannot even see itself.
 */
export type RouteAuth = 'none' | Scope | { anyOf: readonly [Scope, ...Scope[]]; keyIn?: 'query' } | { selfKey: true };

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
 * One endpoint: its request/response half comes from the shared table (`endpoint(...)` from
 * src/contracts/endpoints.ts), whose schemas validate the request, type the handler and generate
 * /openapi.json; the route adds who may call it, its documentation and the handler. The handler
 * returns the response body; the wrapper sets the status.
 */
export interface RouteDef<B = unknown, Q = unknown, P = unknown> extends Omit<EndpointSchemas, 'body' | 'query' | 'params'> {
  method: Method;
  /** OpenAPI form, e.g. `/auth/keys/{id}/rotate`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** Who may call it: see `RouteAuth`. There is no "any valid key". */
  auth: RouteAuth;
  /** What the handler checks beyond `auth` (listed in docs/security.md), e.g. "executing needs agent:approve". */
  authNote?: string;
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
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
