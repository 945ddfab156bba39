import { createHash } from 'node:crypto';
import type { Context, Next } from 'koa';
import { AppError } from '../../errors.js';
import type { Clock } from '../../domain/clock.js';

const WINDOW_MS = 60_000;
const RETRY_AFTER_S = 30;

/**
 * Fixed one-minute windows per (credential, client IP). The credential is hashed as presented, so
 * floods with bad keys are limited too. `limit` 0 turns it off.
 */
export function rateLimit(limit: number, clock: Clock) {
  const buckets = new Map<string, { start: number; count: number }>();
  let lastSweep = 0;
  return async (ctx: Context, next: Next) => {
    if (limit <= 0) return next();
    const now = clock.now().getTime();
    if (now - lastSweep > WINDOW_MS) {
      for (const [k, b] of buckets) if (now - b.start >= WINDOW_MS) buckets.delete(k);
      lastSweep = now;
    }
    const cred = ctx.get('authorization') || (typeof ctx.query.key === 'string' ? ctx.query.key : '') || (typeof ctx.query.access_token === 'string' ? ctx.query.access_token : '');
    const id = createHash('sha256').update(cred).digest('base64url').slice(0, 16) + '|' + ctx.ip;
    let b = buckets.get(id);
    if (!b || now - b.start >= WINDOW_MS) buckets.set(id, (b = { start: now, count: 0 }));
    b.count++;
    const reset = Math.max(0, Math.ceil((b.start + WINDOW_MS - now) / 1000));
    ctx.set('RateLimit-Limit', String(limit));
    ctx.set('RateLimit-Remaining', String(Math.max(0, limit - b.count)));
    ctx.set('RateLimit-Reset', String(reset));
    if (b.count > limit) {
      throw new AppError(429, 'rate_limited', `Rate limit of ${limit} requests per minute exceeded; retry in ${RETRY_AFTER_S} s.`, {
        headers: { 'Retry-After': String(RETRY_AFTER_S) },
      });
    }
    await next();
  };
}
