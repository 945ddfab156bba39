import type { Context, Next } from 'koa';
import { newId } from '../../domain/ids.js';

/** Every response carries X-Trace-Id; a client-sent one (printable, ≤128 chars) is kept for correlation. */
export function traceId() {
  return async (ctx: Context, next: Next) => {
    const given = ctx.get('x-trace-id');
    // Request ids get their own prefix so they are never mistaken for memory trace uids (tr_).
    ctx.state.traceId = /^[\x21-\x7e]{1,128}$/.test(given) ? given : newId('rq');
    ctx.set('X-Trace-Id', ctx.state.traceId);
    await next();
  };
}
