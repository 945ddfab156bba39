import ICAL from 'ical.js';

/** RFC 5545 §3.3.10 rule parts, in the order a canonical rule lists them. */
const PARTS = [
  'FREQ',
  'UNTIL',
  'COUNT',
  'INTERVAL',
  'BYSECOND',
  'BYMINUTE',
  'BYHOUR',
  'BYDAY',
  'BYMONTHDAY',
  'BYYEARDAY',
  'BYWEEKNO',
  'BYMONTH',
  'BYSETPOS',
  'WKST',
] as const;
const FREQS = new Set(['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);
/** Sub-hourly rules would make one event thousands of occurrences a day. */
const TOO_FREQUENT = new Set(['SECONDLY', 'MINUTELY']);
const WEEKDAY = /^(SU|MO|TU|WE|TH|FR|SA)$/;
const BYDAY = /^([+-]?\d{1,2})?(SU|MO|TU|WE|TH|FR|SA)$/;
const UNTIL = /^\d{8}(T\d{6}Z?)?$/;

/**
 * Starts one rule may give on one local day: HOURLY is the densest rule allowed. Defined here, at
 * the bottom, because the check below needs it; the API publishes it as the calendar limit
 * `max_occurrences_per_day` (src/contracts/calendar-limits.ts).
 */
export const MAX_OCCURRENCES_PER_DAY = 24;

const ranges: Record<string, [number, number, boolean]> = {
  // [min, max, negatives allowed]
  BYSECOND: [0, 60, false],
  BYMINUTE: [0, 59, false],
  BYHOUR: [0, 23, false],
  BYMONTHDAY: [1, 31, true],
  BYYEARDAY: [1, 366, true],
  BYWEEKNO: [1, 53, true],
  BYMONTH: [1, 12, false],
  BYSETPOS: [1, 366, true],
};

export class RruleError extends Error {
  /** The limit a rule exceeds (CALENDAR_LIMITS name), when that is the problem. */
  constructor(
    message: string,
    readonly limit?: string,
  ) {
    super(message);
  }
}

/**
 * Check an RRULE value and give it back in canonical form (upper case, parts in RFC order, no
 * "RRULE:" prefix, no spaces), so equal rules compare equal after any round trip. Throws
 * RruleError with a sentence saying what is wrong.
 */
export function canonicalRrule(input: string): string {
  const text = input
    .trim()
    .replace(/^RRULE:/i, '')
    .replace(/\s+/g, '')
    .replace(/;+$/, '')
    .toUpperCase();
  if (!text) throw new RruleError('the rule is empty; it needs at least FREQ, e.g. FREQ=WEEKLY;BYDAY=MO');
  const parts = new Map<string, string>();
  for (const piece of text.split(';')) {
    const i = piece.indexOf('=');
    const name = i > 0 ? piece.slice(0, i) : '';
    const value = i > 0 ? piece.slice(i + 1) : '';
    if (!name || !value) throw new RruleError(`"${piece}" is not NAME=VALUE`);
    if (name.startsWith('X-')) continue;
    if (!(PARTS as readonly string[]).includes(name)) throw new RruleError(`unknown rule part ${name}`);
    if (parts.has(name)) throw new RruleError(`${name} appears twice`);
    parts.set(name, value);
  }
  const freq = parts.get('FREQ');
  if (!freq) throw new RruleError('FREQ is required (e.g. FREQ=DAILY)');
  if (!FREQS.has(freq)) throw new RruleError(`FREQ=${freq} is not one of ${[...FREQS].join(', ')}`);
  if (TOO_FREQUENT.has(freq)) throw new RruleError(`FREQ=${freq} is not supported: the shortest recurrence is HOURLY`);
  if (parts.has('COUNT') && parts.has('UNTIL')) throw new RruleError('COUNT and UNTIL cannot both be given');
  for (const k of ['COUNT', 'INTERVAL']) {
    const v = parts.get(k);
    if (v !== undefined && !/^[1-9]\d{0,5}$/.test(v)) throw new RruleError(`${k} must be a positive integer, not "${v}"`);
  }
  const until = parts.get('UNTIL');
  if (until !== undefined && !UNTIL.test(until)) throw new RruleError(`UNTIL must be a date (YYYYMMDD) or a date-time (YYYYMMDDTHHMMSSZ), not "${until}"`);
  const wkst = parts.get('WKST');
  if (wkst !== undefined && !WEEKDAY.test(wkst)) throw new RruleError(`WKST must be a weekday code (MO … SU), not "${wkst}"`);
  const byday = parts.get('BYDAY');
  if (byday !== undefined) {
    for (const d of byday.split(',')) {
      const m = BYDAY.exec(d);
      if (!m || (m[1] !== undefined && (Math.abs(Number(m[1])) < 1 || Math.abs(Number(m[1])) > 53)))
        throw new RruleError(`BYDAY value "${d}" is not a weekday code such as MO, 1TU or -1FR`);
    }
  }
  for (const [k, [min, max, neg]] of Object.entries(ranges)) {
    const v = parts.get(k);
    if (v === undefined) continue;
    for (const n of v.split(',')) {
      const x = Number(n);
      if (!/^[+-]?\d+$/.test(n) || (x < 0 && !neg) || Math.abs(x) < min || Math.abs(x) > max || (x === 0 && min > 0))
        throw new RruleError(`${k} value "${n}" is out of range (${neg ? '±' : ''}${min}–${max})`);
    }
  }
  shapeProblem(freq, parts);
  const canonical = PARTS.filter((p) => parts.has(p))
    .map((p) => `${p}=${parts.get(p)}`)
    .join(';');
  try {
    ICAL.Recur.fromString(canonical);
  } catch (e) {
    throw new RruleError((e as Error).message);
  }
  return canonical;
}

/** A problem message for an RRULE value, or undefined when it is valid. */
export function rruleProblem(input: string): string | undefined {
  try {
    canonicalRrule(input);
    return undefined;
  } catch (e) {
    if (e instanceof RruleError) return e.message;
    throw e;
  }
}

/**
 * RFC 5545 §3.3.10 combinations that have no meaning (its expand/limit table marks them N/A),
 * and rules denser than the per-day cap. Refused here so no expansion ever sees them.
 */
function shapeProblem(freq: string, parts: Map<string, string>): void {
  const has = (k: string) => parts.has(k);
  if (has('BYWEEKNO') && freq !== 'YEARLY') throw new RruleError(`BYWEEKNO is only allowed with FREQ=YEARLY, not FREQ=${freq}`);
  if (has('BYYEARDAY') && ['DAILY', 'WEEKLY', 'MONTHLY'].includes(freq)) throw new RruleError(`BYYEARDAY cannot be used with FREQ=${freq} (RFC 5545)`);
  if (has('BYMONTHDAY') && freq === 'WEEKLY') throw new RruleError('BYMONTHDAY cannot be used with FREQ=WEEKLY (RFC 5545)');
  const byday = parts.get('BYDAY');
  if (byday && /\d/.test(byday)) {
    if (freq !== 'MONTHLY' && freq !== 'YEARLY')
      throw new RruleError(`BYDAY with a position (e.g. ${byday.split(',').find((d) => /\d/.test(d))}) needs FREQ=MONTHLY or FREQ=YEARLY, not FREQ=${freq}`);
    if (freq === 'YEARLY' && has('BYWEEKNO')) throw new RruleError('BYDAY with a position cannot be used with BYWEEKNO (RFC 5545)');
    for (const d of byday.split(',')) {
      const n = Math.abs(parseInt(d, 10) || 0);
      if (freq === 'MONTHLY' && n > 5) throw new RruleError(`BYDAY value "${d}": a month has at most 5 of each weekday`);
    }
  }
  if (has('BYSETPOS') && !PARTS.some((p) => p.startsWith('BY') && p !== 'BYSETPOS' && has(p)))
    throw new RruleError('BYSETPOS needs another BYxxx part to select from (RFC 5545)');
  const count = (k: string) => (has(k) ? new Set(parts.get(k)!.split(',')).size : 1);
  const interval = Number(parts.get('INTERVAL') ?? 1);
  const hours = freq === 'HOURLY' ? Math.min(has('BYHOUR') ? count('BYHOUR') : 24, Math.ceil(24 / interval)) : count('BYHOUR');
  const perDay = hours * count('BYMINUTE') * count('BYSECOND');
  const max = MAX_OCCURRENCES_PER_DAY;
  if (perDay > max)
    throw new RruleError(
      `the rule gives up to ${perDay} occurrences a day; at most ${max} are allowed (limit max_occurrences_per_day)`,
      'max_occurrences_per_day',
    );
}
