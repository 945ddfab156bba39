import { Readable } from 'node:stream';
import type { Context } from 'koa';
import type { EndpointName } from '../../contracts/endpoints.js';
import type { Principal } from '../../domain/principal.js';
import { badRequest, notFound } from '../../errors.js';
import type { ApiPort, PortArgs } from '../../mcp/api-port.js';
import { assertRouteServed, invokeRoute } from '../invoke-route.js';
import { deeperThan, MAX_JSON_DEPTH } from '../json-depth.js';
import type { RouteDef } from '../route.js';
import { authorize } from '../route-auth.js';
import type { Services } from '../services.js';

/**
 * The API as the daemon's own MCP endpoint calls it: the route table's permission, schemas and
 * handler, with the caller's principal, without a network round trip. The result is passed
 * through JSON so a tool sees exactly what an HTTP client would.
 */
export function inProcessPort(routes: RouteDef[], services: Services, openapi: () => object, principal: Principal): ApiPort {
  const byName = new Map(routes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r]));
  return {
    async call(name: EndpointName, args: PortArgs = {}) {
      const def = byName.get(name);
      if (!def) throw notFound(`No route ${name}.`);
      assertRouteServed(def, services, name);
      authorize(principal, def.auth, args.params ?? {});
      if (args.body !== undefined && deeperThan(args.body, MAX_JSON_DEPTH)) throw badRequest(`The arguments nest deeper than ${MAX_JSON_DEPTH} levels.`);
      // The few handlers that touch ctx set headers or read the published document.
      const ctx = { state: { openapi }, set: () => {}, vary: () => {} } as unknown as Context;
      const result = await invokeRoute(def, { body: args.body, query: args.query ?? {}, params: args.params ?? {} }, principal, services, ctx);
      // Listings stream their JSON a slice per turn (a Readable of text).
      if (result instanceof Readable) {
        let text = '';
        for await (const part of result) text += String(part);
        return JSON.parse(text);
      }
      return JSON.parse(JSON.stringify(result ?? {}));
    },
  };
}
