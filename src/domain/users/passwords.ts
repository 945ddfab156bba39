import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';

interface Params {
  N: number;
  r: number;
  p: number;
}
/** N=2^17, r=8: 128 MiB and a few hundred ms per hash, the OWASP floor for scrypt. */
export const PARAMS: Params = { N: 2 ** 17, r: 8, p: 1 };
/** At most this many hashes at once: each holds 128 MiB while it runs. */
const MAX_CONCURRENT = 2;

let running = 0;
const waiting: (() => void)[] = [];

/** scrypt in the thread pool, with room for its memory (Node's default maxmem is 32 MiB) and a cap on concurrency. */
async function scrypt(pw: string, salt: Buffer, len: number, params: Params): Promise<Buffer> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((ok) => waiting.push(ok));
  running++;
  try {
    return await new Promise<Buffer>((ok, fail) =>
      scryptCb(pw, salt, len, { ...params, maxmem: 2 * 128 * params.N * params.r * params.p }, (err, key) => (err ? fail(err) : ok(key))),
    );
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** `scrypt$N$r$p$salt$hash`, all base64url: the parameters travel with the hash. */
export async function hashPassword(pw: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(pw, salt, 32, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** A hash no password matches, at today's cost: an unknown email takes as long as a wrong password. */
const DUMMY = ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, 'A'.repeat(22), 'A'.repeat(43)].join('$');

/** Compare `pw` with a stored hash; `stored` null/undefined compares with a dummy (same cost, always false). */
export async function verifyPassword(pw: string, stored: string | null | undefined): Promise<boolean> {
  const real = typeof stored === 'string';
  const [alg, n, r, p, salt, hash] = (real ? stored : DUMMY).split('$');
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (alg !== 'scrypt' || !salt || !hash || !Number.isInteger(params.N) || params.N > 2 ** 20) return false;
  const expected = Buffer.from(hash, 'base64url');
  const got = await scrypt(pw, Buffer.from(salt, 'base64url'), expected.length, params);
  return real && timingSafeEqual(expected, got);
}

/** Whether a stored hash was made with weaker parameters than today's (it is replaced at the next login). */
export function needsRehash(stored: string): boolean {
  const [alg, n, r, p] = stored.split('$');
  return alg !== 'scrypt' || Number(n) < PARAMS.N || Number(r) < PARAMS.r || Number(p) < PARAMS.p;
}
