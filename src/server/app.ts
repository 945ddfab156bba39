import Koa, { type Context } from 'koa';
import { koaBody } from 'koa-body';
import { AppError, badRequest, unauthorized } from '../errors.js';
import { resolvePrincipal } from './auth.js';
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
import { createRouter, unroutedAnswers } from './route-table.js';
import { allRoutes } from './routes/index.js';
import type { Services } from './services.js';
import { cookieRequestOf, presentedCredential } from './web/cookie-credential.js';
import { pageFiles } from './web/page-files.js';

const MiB = 1024 * 1024;
const JSON_TYPE = 'application/json; charset=utf-8';

/** The Koa app over the given services. Never listens: the daemon (or a test) does. */
export function createApp(services: Services): Koa {
  const app = new Koa({ proxy: false });
  app.silent = true; // errors are logged by the envelope middleware, not printed by Koa
  const routes = allRoutes();
  const openapi = openApiOnDemand(routes, { version: services.version });
  const limiter = limiterOf(services);
  // Each route's steps made once. Order matters: the credential is checked before a byte of the
  // body is read.
  const router = createRouter(routes, (def) => routeSteps(def, services, limiter, openapi));
  app.use(errorEnvelope(services.logger));
  app.use(traceId());
  app.use(hostCheck(services.config.host));
  app.use(cors());
  app.use(pageFiles());
  app.use(mcpEndpoint(services, routes, openapi, limiter));
  app.use(router.routes());
  // What no route answered is counted in the address's anonymous bucket, then refused (501, 405) or not found.
  app.use(rateLimit(limiter, () => false));
  app.use(unroutedAnswers(router));
  return app;
}

/**
 * One route's pipeline as a single function: resolve the credential and apply the route table's
 * permission (sets `ctx.state.principal`), read the body, validate and call the handler.
 */
function routeSteps(def: RouteDef, services: Services, limiter: RateLimiter, openapi: () => object) {
  const fromQuery = typeof def.auth === 'object' && 'keyIn' in def.auth && def.auth.keyIn === 'query';
  const readBody = bodyParser(def);
  const run = handle(def, services, openapi);
  return async (ctx: Context): Promise<void> => {
    // Public routes count in the address's anonymous bucket; the others once their credential is known.
    if (def.auth === 'none' && limiter.enabled) limiter.chargeAnonymous(ctx.ip, ctx);
    assertRouteServed(def, services, `${ctx.method} ${ctx.path}`);
    ctx.state.limiter = limiter;
    if (def.auth !== 'none') {
      let principal: Awaited<ReturnType<typeof resolvePrincipal>>;
      try {
        principal = fromQuery
          ? await resolvePrincipal(services, queryKey(ctx), {})
          : await resolvePrincipal(services, presentedCredential(services, ctx.get('authorization') || undefined, cookieRequestOf(ctx)), {
              agentId: ctx.get('x-agent-id') || undefined,
              userId: ctx.get('x-user-id') || undefined,
            });
      } catch (e) {
        if (e instanceof AppError && e.status === 401) limiter.chargeAnonymous(ctx.ip, ctx);
        throw e;
      }
      limiter.charge(ctx, principal);
      authorize(principal, def.auth, ctx.params as Record<string, string | undefined>);
      ctx.state.principal = principal;
    }
    if (readBody) await readBody(ctx);
    await run(ctx);
  };
}

/** The API key of `?key=` (only API keys: a login token does not belong in a URL). */
function queryKey(ctx: Context): string {
  const key = ctx.query.key;
  if (typeof key !== 'string' || !key) throw unauthorized('Missing key: add ?key=<feed key> (see `kairos cal subscribe-url`).');
  if (/^[\w-]+\.[\w-]+\.[\w-]+$/.test(key)) throw unauthorized('Only an API key goes in ?key=, not a login token.');
  return key;
}

/** The body reader of a route with a body; undefined when it takes none (nothing to read). */
function bodyParser(def: RouteDef): ((ctx: Context) => Promise<void>) | undefined {
  if (!def.body) return undefined;
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
  return async (ctx: Context) => {
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
  };
}

/** Undefined, null, a plain object or an array: what Koa itself would serialise as JSON. */
const isJsonValue = (v: unknown) => v == null || (typeof v === 'object' && !Buffer.isBuffer(v) && typeof (v as { pipe?: unknown }).pipe !== 'function');

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
      // A handler that set validators (ETag, Last-Modified) answers a conditional GET they still match with 304.
      if ((ctx.response.get('ETag') || ctx.response.get('Last-Modified')) && ctx.fresh) ctx.status = 304;
    } else if (isJsonValue(result)) {
      // Serialised here, with its type set as a header: Koa would otherwise look the type up
      // (mime-types) on every response before serialising the same way.
      if (!ctx.response.get('Content-Type')) ctx.set('Content-Type', JSON_TYPE);
      ctx.body = JSON.stringify(result ?? {});
    } else ctx.body = result; // a stream, a Buffer or text the handler made: Koa sends it as it is
  };
}
