import Router from '@koa/router';
import Koa, { type Context } from 'koa';
import { koaBody } from 'koa-body';
import { requireScope } from '../domain/principal.js';
import { AppError, badRequest, notFound } from '../errors.js';
import { bearerOf, resolvePrincipal } from './auth.js';
import { cors } from './middleware/cors.js';
import { errorEnvelope } from './middleware/errors.js';
import { rateLimit } from './middleware/rate-limit.js';
import { traceId } from './middleware/trace-id.js';
import { buildOpenApi } from './openapi.js';
import type { RouteDef } from './route.js';
import { allRoutes } from './routes/index.js';
import type { Services } from './services.js';
import { parseOr422 } from './validate.js';

const MiB = 1024 * 1024;

/** The Koa app over the given services. Never listens: the daemon (or a test) does. */
export function createApp(services: Services): Koa {
  const app = new Koa({ proxy: false });
  app.silent = true; // errors are logged by the envelope middleware, not printed by Koa
  const routes = allRoutes();
  const openapi = buildOpenApi(routes, { version: services.version });
  const router = new Router();
  for (const def of routes) {
    const path = def.path.replace(/\{(\w+)\}/g, ':$1');
    router[def.method](path, bodyParser(def), handle(def, services, openapi));
  }
  app.use(errorEnvelope(services.logger));
  app.use(traceId());
  app.use(cors());
  app.use(rateLimit(services.config.rateLimit, services.clock));
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true, methodNotAllowed: () => new AppError(405, 'method_not_allowed', 'Method not allowed on this route.') }));
  return app;
}

function bodyParser(def: RouteDef) {
  if (!def.body) return async (_ctx: Context, next: () => Promise<unknown>) => next();
  const limit = def.bodyLimit ?? MiB;
  return koaBody({
    json: true,
    jsonLimit: limit,
    text: Boolean(def.rawBodyTypes?.length),
    textLimit: limit,
    textTypes: def.rawBodyTypes ?? [],
    urlencoded: false,
    multipart: false,
  });
}

function handle(def: RouteDef, services: Services, openapi: object) {
  return async (ctx: Context) => {
    if (def.debugOnly && !services.config.debug) throw notFound(`No route ${ctx.method} ${ctx.path}.`);
    const principal =
      def.auth === 'none'
        ? undefined
        : await resolvePrincipal(services, bearerOf(ctx.get('authorization') || undefined), {
            agentId: ctx.get('x-agent-id') || undefined,
            userId: ctx.get('x-user-id') || undefined,
          });
    if (principal && def.auth !== 'none' && def.auth !== 'user') requireScope(principal, def.auth);

    let body: unknown;
    let raw: string | undefined;
    if (def.body) {
      const hasBody = Number(ctx.get('content-length') || 0) > 0 || Boolean(ctx.get('transfer-encoding'));
      if (def.rawBodyTypes?.length && ctx.is(def.rawBodyTypes)) raw = String(ctx.request.body ?? '');
      else if (hasBody && !ctx.is('application/json', '+json')) throw badRequest(`Send the body as application/json${def.rawBodyTypes?.length ? ` or ${def.rawBodyTypes.join(', ')}` : ''}.`);
      else body = parseOr422(def.body, hasBody ? ctx.request.body : {}, 'body');
    }
    const query = def.query ? parseOr422(def.query, ctx.query, 'query') : undefined;
    const params = def.params ? parseOr422(def.params, ctx.params, 'params') : undefined;
    ctx.state.openapi = openapi;
    const result = await def.handler({ body, raw, query, params, principal: principal!, services, ctx });
    ctx.status = def.status ?? 200;
    if (def.produces) {
      ctx.type = def.produces;
      ctx.body = result;
    } else ctx.body = result ?? {};
  };
}
