import { hash } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Clock } from '../../domain/clock.js';
import { AppError } from '../../errors.js';

const WINDOW_MS = 60_000;
const RETRY_AFTER_S = 30;
/** Login attempts per minute for one email, whoever sends them (never more than the general limit). */
export const LOGIN_PER_EMAIL = 10;

const limited = (limit: number, what: string) =>
  new AppError(429, 'rate_limited', `Rate limit of ${limit} requests per minute${what ? ` ${what}` : ''} exceeded; retry in ${RETRY_AFTER_S} s.`, {
    headers: { 'Retry-After': String(RETRY_AFTER_S) },
  });

/** Fixed one-minute windows over named buckets. `limit` 0 turns it off. */
export class RateLimiter {
  private readonly buckets = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  constructor(
    readonly limit: number,
    private readonly clock: Clock,
  ) {}

  get enabled(): boolean {
    return this.limit > 0;
  }

  /** Count one request in `bucket`; returns its state after counting. */
  hit(bucket: string, limit = this.limit): { over: boolean; remaining: number; reset: number } {
    const now = this.clock.now().getTime();
    if (now - this.lastSweep > WINDOW_MS) {
      for (const [k, b] of this.buckets) if (now - b.start >= WINDOW_MS) this.buckets.delete(k);
      this.lastSweep = now;
    }
    let b = this.buckets.get(bucket);
    if (!b || now - b.start >= WINDOW_MS) this.buckets.set(bucket, (b = { start: now, count: 0 }));
    b.count++;
    return { over: b.count > limit, remaining: Math.max(0, limit - b.count), reset: Math.max(0, Math.ceil((b.start + WINDOW_MS - now) / 1000)) };
  }

  /**
   * Charge an unauthenticated request (a public route, or a credential that failed) to the
   * client's IP alone: varying the credential presented does not buy more tries.
   */
  chargeAnonymous(ip: string): void {
    if (this.enabled && this.hit(`anon|${ip}`).over) throw limited(this.limit, 'per client address for unauthenticated requests');
  }

  /** Login attempts for one target email, from any address. */
  chargeLoginEmail(email: string): void {
    const limit = Math.min(this.limit, LOGIN_PER_EMAIL);
    if (this.enabled && this.hit(`login|${email.toLowerCase()}`, limit).over) throw limited(limit, 'for logins to one account');
  }
}

const limiters = new WeakMap<object, RateLimiter>();

/**
 * The one limiter of a daemon (of its services): HTTP requests and WebSocket upgrades count in
 * the same buckets, so a credential refused on either is charged to the same address.
 */
export function limiterOf(owner: { config: { rateLimit: number }; clock: Clock }): RateLimiter {
  let l = limiters.get(owner);
  if (!l) limiters.set(owner, (l = new RateLimiter(owner.config.rateLimit, owner.clock)));
  return l;
}

/**
 * Every request with a credential counts in the bucket of (credential, client IP); requests
 * without one, and requests to public routes, in the client IP's anonymous bucket (the login
 * route adds its own per-email bucket). Sets the RateLimit-* headers from that bucket.
 */
export function rateLimit(limiter: RateLimiter, isPublic: (method: string, path: string) => boolean) {
  return (ctx: Context, next: Next) => {
    if (!limiter.enabled) return next();
    const cred =
      ctx.get('authorization') ||
      (typeof ctx.query.key === 'string' ? ctx.query.key : '') ||
      (typeof ctx.query.access_token === 'string' ? ctx.query.access_token : '');
    const bucket = cred && !isPublic(ctx.method, ctx.path) ? hash('sha256', cred, 'base64url').slice(0, 16) + '|' + ctx.ip : `anon|${ctx.ip}`;
    const b = limiter.hit(bucket);
    ctx.set('RateLimit-Limit', String(limiter.limit));
    ctx.set('RateLimit-Remaining', String(b.remaining));
    ctx.set('RateLimit-Reset', String(b.reset));
    if (b.over) throw limited(limiter.limit, '');
    return next();
  };
}
