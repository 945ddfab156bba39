import { ID_ALPHABET as ALPHABET, randomChars } from '../platform/random-chars.js';

let lastMs = 0;

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
 * prefix. Sorting by id is sorting by creation: an id made in the same millisecond as the one
 * before (or earlier) takes the next millisecond, so ids made in one batch differ in their time
 * part, early, and a short prefix tells them apart in a listing.
 */
export function newId(prefix: 'tr' | 'ev' | 'pl' | 'ac' | 'key' | 'usr' | 'cp' | 'fb' | 'rq' | 'sub' | 'acct' | 'im', now = Date.now()): string {
  if (now <= lastMs) now = lastMs + 1;
  lastMs = now;
  return `${prefix}_${encodeTime(now)}${randomChars(16)}`;
}
