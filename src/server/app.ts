import Router from '@koa/router';
import Koa, { type Context, type Next } from 'koa';
import { koaBody } from 'koa-body';
import { AppError, badRequest, unauthorized } from '../errors.js';
import { bearerOf, resolvePrincipal } from './auth.js';
import { assertRouteServed, invokeRoute } from './invoke-route.js';
import { deeperThan, MAX_JSON_DEPTH } from './json-depth.js';
import { mcpEndpoint } from './mcp/endpoint.js';
import { cors } from './middleware/cors.js';
import { errorEnvelope } from './middleware/errors.js';
import { hostCheck } from './middleware/host-check.js';
import { limiterOf, type RateLimiter, rateLimit } from './middleware/rate-limit.js';
import { traceId } from './middleware/trace-id.js';
import { openApiOnDemand } from './openapi.js';
import type { RouteDef } from './route.js';
import { authorize } from './route-auth.js';
import { allRoutes } from './routes/index.js';
import type { Services } from './services.js';

const MiB = 1024 * 1024;

/** The Koa app over the given services. Never listens: the daemon (or a test) does. */
export function createApp(services: Services): Koa {
  const app = new Koa({ proxy: false });
  app.silent = true; // errors are logged by the envelope middleware, not printed by Koa
  const routes = allRoutes();
  const openapi = openApiOnDemand(routes, { version: services.version });
  const limiter = limiterOf(services);
  const publicRoutes = new Set(routes.filter((r) => r.auth === 'none').map((r) => `${r.method.toUpperCase()} ${r.path}`));
  const router = new Router();
  for (const def of routes) {
    const path = def.path.replace(/\{(\w+)\}/g, ':$1');
    // Order matters: the credential is checked before a byte of the body is read.
    router[def.method](path, authenticate(def, services, limiter), bodyParser(def), handle(def, services, openapi));
  }
  app.use(errorEnvelope(services.logger));
  app.use(traceId());
  app.use(hostCheck(services.config.host));
  app.use(cors());
  app.use(rateLimit(limiter, (method, path) => publicRoutes.has(`${method} ${path}`)));
  app.use(mcpEndpoint(services, routes, openapi, limiter));
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true, methodNotAllowed: () => new AppError(405, 'method_not_allowed', 'Method not allowed on this route.') }));
  return app;
}

/** Resolve the credential and apply the route table's permission; sets `ctx.state.principal`. */
function authenticate(def: RouteDef, services: Services, limiter: RateLimiter) {
  return async (ctx: Context, next: Next) => {
    assertRouteServed(def, services, `${ctx.method} ${ctx.path}`);
    ctx.state.limiter = limiter;
    // Public routes were counted in the address's anonymous bucket by the rate-limit middleware.
    if (def.auth === 'none') return next();
    const fromQuery = typeof def.auth === 'object' && 'keyIn' in def.auth && def.auth.keyIn === 'query';
    let principal: Awaited<ReturnType<typeof resolvePrincipal>>;
    try {
      principal = fromQuery
        ? await resolvePrincipal(services, queryKey(ctx), {})
        : await resolvePrincipal(services, bearerOf(ctx.get('authorization') || undefined), {
            agentId: ctx.get('x-agent-id') || undefined,
            userId: ctx.get('x-user-id') || undefined,
          });
    } catch (e) {
      if (e instanceof AppError && e.status === 401) limiter.chargeAnonymous(ctx.ip);
      throw e;
    }
    authorize(principal, def.auth, ctx.params as Record<string, string | undefined>);
    ctx.state.principal = principal;
    await next();
  };
}

/** The API key of `?key=` (only API keys: a login token does not belong in a URL). */
function queryKey(ctx: Context): string {
  const key = ctx.query.key;
  if (typeof key !== 'string' || !key) throw unauthorized('Missing key: add ?key=<feed key> (see `kairos cal subscribe-url`).');
  if (/^[\w-]+\.[\w-]+\.[\w-]+$/.test(key)) throw unauthorized('Only an API key goes in ?key=, not a login token.');
  return key;
}

function bodyParser(def: RouteDef) {
  if (!def.body) return async (_ctx: Context, next: Next) => next();
  const limit = def.bodyLimit ?? MiB;
  const parse = koaBody({
    json: true,
    jsonLimit: limit,
    text: Boolean(def.rawBodyTypes?.length),
    textLimit: limit,
    textTypes: def.rawBodyTypes ?? [],
    urlencoded: false,
    multipart: false,
  });
  return async (ctx: Context, next: Next) => {
    let parsed = false;
    try {
      await parse(ctx, async () => {
        parsed = true;
      });
    } catch (e) {
      // The JSON parser's own failures (syntax, a stack overflow on hostile nesting) are the client's.
      const status = (e as { status?: number }).status;
      if (!parsed && status === 400) throw badRequest('The body is not valid JSON.');
      throw e;
    }
    if (deeperThan(ctx.request.body, MAX_JSON_DEPTH)) throw badRequest(`The body nests deeper than ${MAX_JSON_DEPTH} levels.`);
    await next();
  };
}

function handle(def: RouteDef, services: Services, openapi: () => object) {
  return async (ctx: Context) => {
    let body: unknown;
    let raw: string | undefined;
    if (def.body) {
      const hasBody = Number(ctx.get('content-length') || 0) > 0 || Boolean(ctx.get('transfer-encoding'));
      if (def.rawBodyTypes?.length && ctx.is(def.rawBodyTypes)) raw = String(ctx.request.body ?? '');
      else if (hasBody && !ctx.is('application/json', '+json'))
        throw badRequest(`Send the body as application/json${def.rawBodyTypes?.length ? ` or ${def.rawBodyTypes.join(', ')}` : ''}.`);
      else if (hasBody) body = ctx.request.body;
    }
    ctx.state.openapi = openapi;
    const result = await invokeRoute(def, { body, raw, query: ctx.query, params: ctx.params }, ctx.state.principal, services, ctx);
    ctx.status = def.status ?? 200;
    if (def.produces) {
      ctx.type = def.produces;
      ctx.body = result;
    } else ctx.body = result ?? {};
  };
}
