import type { Context, Next } from 'koa';

const LOCAL_ORIGIN = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;
/** A page served from this machine (any port of localhost or a loopback address). */
export const isLocalOrigin = (origin: string) => LOCAL_ORIGIN.test(origin);
const ALLOW_HEADERS = 'Authorization, Content-Type, X-Agent-ID, X-User-ID, X-Trace-Id';
const EXPOSE_HEADERS = 'X-Trace-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Cache';

/** Local frontends (any port on localhost/127.0.0.1) may call the API from a browser. */
export function cors() {
  return (ctx: Context, next: Next) => {
    const origin = ctx.get('origin');
    const allowed = origin && LOCAL_ORIGIN.test(origin);
    if (allowed) {
      ctx.set('Access-Control-Allow-Origin', origin);
      ctx.vary('Origin');
      ctx.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    }
    if (ctx.method === 'OPTIONS' && ctx.get('access-control-request-method')) {
      if (allowed) {
        ctx.set('Access-Control-Allow-Methods', 'GET, POST, PATCH, PUT, DELETE, OPTIONS');
        ctx.set('Access-Control-Allow-Headers', ctx.get('access-control-request-headers') || ALLOW_HEADERS);
        ctx.set('Access-Control-Max-Age', '600');
      }
      ctx.status = 204;
      return;
    }
    return next();
  };
}
