import { randomBytes } from 'node:crypto';
import type { Context, Next } from 'koa';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lowercase, as every id here
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let used = 0;

/**
 * A request id, `rq_` and 26 base32 characters of randomness: made on every request, so drawn
 * from a pool of random bytes refilled 4 KiB at a time rather than one `randomBytes` (and one
 * array) per request. Unlike the store's ids it need not sort by time.
 */
export function requestId(): string {
  if (used + 26 > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    used = 0;
  }
  let id = 'rq_';
  for (let i = 0; i < 26; i++) id += ALPHABET[pool[used++]! & 31];
  return id;
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
