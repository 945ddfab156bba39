import type { Context, Next } from 'koa';
import type { Clock } from '../../domain/clock.js';
import type { Principal } from '../../domain/principal.js';
import { AppError } from '../../errors.js';

const WINDOW_MS = 60_000;
const RETRY_AFTER_S = 30;
/** Login attempts per minute for one email, whoever sends them (never more than the general limit). */
export const LOGIN_PER_EMAIL = 10;
/** How many times the general limit an MCP session's requests that do no work may reach. */
const SESSION_CONTROL_FACTOR = 10;

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

  /** Count `n` requests in `bucket`; returns its state after counting. */
  hit(bucket: string, limit = this.limit, n = 1): { over: boolean; remaining: number; reset: number } {
    const now = this.clock.now().getTime();
    if (now - this.lastSweep > WINDOW_MS) {
      for (const [k, b] of this.buckets) if (now - b.start >= WINDOW_MS) this.buckets.delete(k);
      this.lastSweep = now;
    }
    let b = this.buckets.get(bucket);
    if (!b || now - b.start >= WINDOW_MS) this.buckets.set(bucket, (b = { start: now, count: 0 }));
    b.count += n;
    return { over: b.count > limit, remaining: Math.max(0, limit - b.count), reset: Math.max(0, Math.ceil((b.start + WINDOW_MS - now) / 1000)) };
  }

  /**
   * Charge an unauthenticated request (a public route, or a credential that failed) to the
   * client's IP alone: varying the credential presented does not buy more tries. With `ctx`, its
   * RateLimit-* headers tell that bucket's state.
   */
  chargeAnonymous(ip: string, ctx?: Context): void {
    if (this.enabled && this.count(`anon|${ip}`, 1, ctx)) throw limited(this.limit, 'per client address for unauthenticated requests');
  }

  /**
   * Charge `n` units of work to an authenticated caller: its bucket is the parsed credential (the
   * key's id, or the login token's user) with the client's IP, so the header's spelling (`Bearer`,
   * `bearer`, extra spaces) buys nothing. Sets the RateLimit-* headers.
   */
  charge(ctx: Context, p: Principal, n = 1): void {
    if (this.enabled && this.count(principalBucket(p, ctx.ip), n, ctx)) throw limited(this.limit, '');
  }

  /**
   * Charge a caller's MCP session traffic that does no work (initialize, notifications, listings,
   * the SSE stream, closing): not counted like API calls, but bounded by its own, wider bucket.
   */
  chargeSessionControl(ctx: Context, p: Principal): void {
    const limit = this.limit * SESSION_CONTROL_FACTOR;
    if (this.enabled && this.hit(`mcp|${principalBucket(p, ctx.ip)}`, limit).over) throw limited(limit, 'for MCP session requests');
  }

  /** Counts and sets the headers; true when the bucket is over its limit. */
  private count(bucket: string, n: number, ctx: Context | undefined): boolean {
    const b = this.hit(bucket, this.limit, n);
    if (ctx) {
      ctx.set('RateLimit-Limit', String(this.limit));
      ctx.set('RateLimit-Remaining', String(b.remaining));
      ctx.set('RateLimit-Reset', String(b.reset));
    }
    return b.over;
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

/** A caller's bucket: its key, or its login token's user (every token of a user shares one), and the client's IP. */
const principalBucket = (p: Principal, ip: string) => `${p.keyId ? `key:${p.keyId}` : `usr:${p.authUserId}`}|${ip}`;

/**
 * Requests that never present a credential to be checked (public routes, unknown paths) count
 * in the client IP's anonymous bucket here (the login route adds its own per-email bucket).
 * The others are counted once their credential is parsed: by the route pipeline (one request),
 * or by `/mcp` (one per unit of work); a credential that fails counts in the anonymous bucket.
 */
export function rateLimit(limiter: RateLimiter, countedLater: (ctx: Context) => boolean) {
  return (ctx: Context, next: Next) => {
    if (!limiter.enabled || countedLater(ctx)) return next();
    limiter.chargeAnonymous(ctx.ip, ctx);
    return next();
  };
}
