import Router, { type RouterMiddleware } from '@koa/router';
import type { Context, Next } from 'koa';
import { AppError } from '../errors.js';
import type { RouteDef } from './route.js';

/** The methods the API answers at all; any other is 501. */
export const IMPLEMENTED_METHODS: readonly string[] = ['HEAD', 'OPTIONS', 'GET', 'PUT', 'PATCH', 'POST', 'DELETE'];

/** A path of the table (`/auth/keys/{id}`) as the router writes it (`/auth/keys/:id`). */
export const routerPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * The route table (`allRoutes()`, which also feeds OpenAPI, MCP and the security doc) as a
 * @koa/router router: each route answers its method (a GET route HEAD too) on its path, case
 * insensitive, with one optional trailing slash; path parameters arrive percent-decoded in
 * `ctx.params`. When several routes match, the first of the table wins (it answers without
 * calling the next one).
 */
export function createRouter(routes: readonly RouteDef[], run: (def: RouteDef) => (ctx: Context) => Promise<void>): Router {
  const router = new Router({ methods: [...IMPLEMENTED_METHODS] });
  for (const def of routes) router.register(routerPath(def.path), [def.method.toUpperCase()], run(def) as RouterMiddleware);
  return router;
}

/**
 * What a request no route answered gets, once nothing after the router answered it either: 501
 * for a method the API does not implement, the path's methods for OPTIONS, 405 for another method
 * of a path that exists; anything else goes on (404).
 */
export function unroutedAnswers(router: Router) {
  const allowed = router.allowedMethods({
    throw: true,
    methodNotAllowed: () => new AppError(405, 'method_not_allowed', 'Method not allowed on this route.'),
  });
  return (ctx: Context, next: Next) => {
    if (!IMPLEMENTED_METHODS.includes(ctx.method)) throw new AppError(501, 'not_implemented', `Method ${ctx.method} is not implemented.`);
    return allowed(ctx as Parameters<typeof allowed>[0], next);
  };
}
