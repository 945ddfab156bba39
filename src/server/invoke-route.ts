import type { Context } from 'koa';
import type { Principal } from '../domain/principal.js';
import { notFound } from '../errors.js';
import type { RouteDef } from './route.js';
import type { Services } from './services.js';
import { parseOr422 } from './validate.js';

/** A debug-only route does not exist unless the daemon runs with `debug` on. */
export function assertRouteServed(def: RouteDef, services: Services, name: string): void {
  if (def.debugOnly && !services.config.debug) throw notFound(`No route ${name}.`);
}

/** What a caller sent, before validation: `body` undefined means none was sent. */
export interface RouteInput {
  body?: unknown;
  /** The body as text, for a route's `rawBodyTypes` (then `body` is not parsed). */
  raw?: string;
  query: unknown;
  params: unknown;
}

/**
 * The route table's schemas and handler for an authorized caller: the one pipeline behind both
 * the HTTP routes and the daemon's in-process MCP port, so the two cannot drift apart.
 */
export function invokeRoute(def: RouteDef, input: RouteInput, principal: Principal, services: Services, ctx: Context): unknown {
  const body = def.body && input.raw === undefined ? parseOr422(def.body, input.body ?? {}, 'body') : undefined;
  const query = def.query ? parseOr422(def.query, input.query, 'query') : undefined;
  const params = def.params ? parseOr422(def.params, input.params, 'params') : undefined;
  return def.handler({ body, raw: input.raw, query, params, principal, services, ctx });
}
