import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lowercase
let lastMs = 0;
let lastRand: number[] = [];

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

/**
 * A time-sortable id (ULID layout: 10 chars of milliseconds, 16 of randomness) with its kind as
 * prefix. Ids made in the same millisecond increase monotonically, so sorting by id is sorting by
 * creation.
 */
export function newId(prefix: 'tr' | 'ev' | 'pl' | 'ac' | 'key' | 'usr' | 'cp' | 'fb' | 'rq' | 'sub' | 'acct' | 'im', now = Date.now()): string {
  if (now <= lastMs && lastRand.length) {
    // Same (or earlier) millisecond: increment the random part.
    let i = lastRand.length - 1;
    while (i >= 0 && lastRand[i] === 31) lastRand[i--] = 0;
    if (i >= 0) lastRand[i]!++;
    now = lastMs;
  } else {
    const bytes = randomBytes(16);
    lastRand = [...bytes].map((b) => b % 32);
    lastMs = now;
  }
  return `${prefix}_${encodeTime(now)}${lastRand.map((n) => ALPHABET[n]).join('')}`;
}
