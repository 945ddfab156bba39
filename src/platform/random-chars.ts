import { randomBytes } from 'node:crypto';

/** Crockford base32, lowercase: the characters of every id kairos makes. */
export const ID_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let used = 0;

/**
 * `n` random base32 characters (5 random bits each). Drawn from a pool of random bytes refilled
 * 4 KiB at a time: a `randomBytes` call per id (and an array to map it) was ~5% of a push's CPU
 * in the daemon's profile under writes.
 */
export function randomChars(n: number): string {
  if (used + n > POOL_SIZE) {
    pool = randomBytes(Math.max(POOL_SIZE, n));
    used = 0;
  }
  let out = '';
  for (let i = 0; i < n; i++) out += ID_ALPHABET[pool[used++]! & 31];
  return out;
}
