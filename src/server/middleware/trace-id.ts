import type { Context, Next } from 'koa';
import { randomChars } from '../../platform/random-chars.js';

/**
 * A request id, `rq_` and 26 base32 characters of randomness (made on every request: see
 * randomChars). Unlike the store's ids it need not sort by time.
 */
export function requestId(): string {
  return `rq_${randomChars(26)}`;
}

const GIVEN = /^[\x21-\x7e]{1,128}$/;

/** Every response carries X-Trace-Id; a client-sent one (printable, ≤128 chars) is kept for correlation. */
export function traceId() {
  return (ctx: Context, next: Next) => {
    const given = ctx.get('x-trace-id');
    // Request ids get their own prefix so they are never mistaken for memory trace uids (tr_).
    const id = given && GIVEN.test(given) ? given : requestId();
    ctx.state.traceId = id;
    ctx.set('X-Trace-Id', id);
    return next();
  };
}
