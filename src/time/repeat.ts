import { validationFailed } from '../errors.js';
import { WEEKDAY_NAMES } from './local-date.js';
import { instantOf, wallAt } from './zone-cache.js';

const DAYS: Record<string, string> = {
  mo: 'MO',
  mon: 'MO',
  monday: 'MO',
  tu: 'TU',
  tue: 'TU',
  tues: 'TU',
  tuesday: 'TU',
  we: 'WE',
  wed: 'WE',
  wednesday: 'WE',
  th: 'TH',
  thu: 'TH',
  thur: 'TH',
  thurs: 'TH',
  thursday: 'TH',
  fr: 'FR',
  fri: 'FR',
  friday: 'FR',
  sa: 'SA',
  sat: 'SA',
  saturday: 'SA',
  su: 'SU',
  sun: 'SU',
  sunday: 'SU',
};
/** RRULE's day codes, in the order of WEEKDAYS. */
const RRULE_DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
const DAY_NAMES: Record<string, string> = Object.fromEntries(RRULE_DAYS.map((c, i) => [c, WEEKDAY_NAMES[i]![0]!.toUpperCase() + WEEKDAY_NAMES[i]!.slice(1)]));
const ORDINALS: Record<string, number> = { first: 1, '1st': 1, second: 2, '2nd': 2, third: 3, '3rd': 3, fourth: 4, '4th': 4, fifth: 5, '5th': 5, last: -1 };
const FREQ_WORDS: Record<string, string> = {
  day: 'DAILY',
  daily: 'DAILY',
  week: 'WEEKLY',
  weekly: 'WEEKLY',
  month: 'MONTHLY',
  monthly: 'MONTHLY',
  year: 'YEARLY',
  yearly: 'YEARLY',
  annually: 'YEARLY',
};

export const REPEAT_EXAMPLES =
  'daily, weekly, every weekday, every monday and thursday, every 2 weeks, monthly on the 3rd wednesday, monthly on the 15th, yearly; add "until 2027-06-30" or "5 times"; or an RRULE such as FREQ=WEEKLY;BYDAY=MO,TH';

const refuse = (text: string, why: string) =>
  validationFailed(`--repeat: ${why} in "${text}". It takes words (${REPEAT_EXAMPLES}).`, [{ path: '--repeat', message: why }]);

const dayList = (words: string, text: string) =>
  words
    .split(/(?:\s|,|\band\b|&)+/)
    .filter(Boolean)
    .map((w) => {
      const d = DAYS[w.replace(/s$/, '')] ?? DAYS[w];
      if (!d) throw refuse(text, `"${w}" is not a day of the week`);
      return d;
    });

/**
 * A repetition in words as khal reads it, into an RFC 5545 RRULE: "every weekday", "every monday
 * and thursday", "every other friday", "monthly on the 3rd wednesday", "daily until 2027-06-30",
 * "weekly, 5 times". Text holding `FREQ=` is a raw RRULE and passes as it is (the daemon validates
 * it). `until` is the end of that day in `tz`. The one grammar of repeats: the CLI's `--repeat`
 * and the planner (for the repetition it found in a prompt) both read words through it.
 */
export function parseRepeat(input: string, tz: string): string {
  const text = input.trim();
  if (/FREQ=/i.test(text)) return text.replace(/^RRULE:/i, '');
  let s = ` ${text.toLowerCase().replace(/\s+/g, ' ')} `;
  const parts: string[] = [];
  let count: number | undefined;
  let until: string | undefined;
  s = s.replace(/[ ,](?:for )?(\d+) ?(?:times|x)[ ,]/, (_m, n: string) => {
    count = Number(n);
    return ' ';
  });
  s = s.replace(/[ ,]until (\d{4})-(\d{2})-(\d{2})[ ,]/, (_m, y: string, mo: string, d: string) => {
    const end = instantOf({ year: +y, month: +mo, day: +d, hour: 23, minute: 59, second: 59 }, tz);
    if (Number.isNaN(end) || new Date(Date.UTC(+y, +mo - 1, +d)).getUTCDate() !== +d) throw refuse(text, `${y}-${mo}-${d} is not a date`);
    until = new Date(end).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
    return ' ';
  });
  s = s
    .replace(/[ ,]+/g, ' ')
    .trim()
    .replace(/^each /, 'every ');
  // "every other friday", "every other week": the same rule, every second time.
  let other = false;
  s = s.replace(/^every other /, () => {
    other = true;
    return 'every ';
  });
  let m: RegExpExecArray | null;
  if (!s && (count !== undefined || until !== undefined)) throw refuse(text, 'how often is missing (daily, weekly, …)');
  if ((m = /^(?:every )?(day|week|month|year|daily|weekly|monthly|yearly|annually)$/.exec(s))) parts.push(`FREQ=${FREQ_WORDS[m[1]!]}`);
  else if ((m = /^every (\d+) (day|week|month|year)s$/.exec(s))) parts.push(`FREQ=${FREQ_WORDS[m[2]!]}`, `INTERVAL=${m[1]}`);
  else if (/^(?:every )?(?:weekday|weekdays|work ?day|work ?days)$/.test(s)) parts.push('FREQ=WEEKLY', 'BYDAY=MO,TU,WE,TH,FR');
  else if (/^(?:every )?weekends?$/.test(s)) parts.push('FREQ=WEEKLY', 'BYDAY=SA,SU');
  else if (
    (m = /^(?:(?:monthly|every month) )?on the (first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th) ([a-z]+)(?: of (?:the|every) month)?$/.exec(s))
  ) {
    const [day] = dayList(m[2]!, text);
    parts.push('FREQ=MONTHLY', `BYDAY=${ORDINALS[m[1]!]}${day}`);
  } else if ((m = /^(?:monthly|every month) on the (\d{1,2})(?:st|nd|rd|th)?$/.exec(s))) {
    const day = Number(m[1]);
    if (day < 1 || day > 31) throw refuse(text, `the ${day}th is not a day of a month`);
    parts.push('FREQ=MONTHLY', `BYMONTHDAY=${day}`);
  } else if ((m = /^(?:every |weekly on |on )([a-z, &]+)$/.exec(s))) parts.push('FREQ=WEEKLY', `BYDAY=${dayList(m[1]!, text).join(',')}`);
  else throw refuse(text, `cannot read "${s || text}" as a repeat`);
  if (other) {
    if (parts.some((p) => p.startsWith('INTERVAL='))) throw refuse(text, '"every other" with a number of weeks or days');
    parts.splice(1, 0, 'INTERVAL=2');
  }
  if (count !== undefined) {
    if (count < 1) throw refuse(text, 'the count must be 1 or more');
    parts.push(`COUNT=${count}`);
  }
  if (until !== undefined) parts.push(`UNTIL=${until}`);
  return parts.join(';');
}

const ordinal = (n: number) =>
  n === -1 ? 'last' : `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;
const listWords = (xs: string[]) => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

/**
 * An RRULE in words: "every weekday until 2027-06-30" (the UNTIL date as a day of `tz`), "monthly on
 * the 3rd Wednesday, 5 times". The rule itself when it has parts this does not read.
 */
export function describeRrule(rrule: string, tz = 'UTC'): string {
  const p = Object.fromEntries(
    rrule
      .replace(/^RRULE:/i, '')
      .split(';')
      .map((kv) => kv.split('=') as [string, string]),
  );
  const known = new Set(['FREQ', 'INTERVAL', 'BYDAY', 'BYMONTHDAY', 'COUNT', 'UNTIL', 'WKST']);
  if (Object.keys(p).some((k) => !known.has(k))) return rrule;
  const n = Number(p.INTERVAL ?? 1);
  const unit = { DAILY: 'day', WEEKLY: 'week', MONTHLY: 'month', YEARLY: 'year' }[p.FREQ as string];
  if (!unit) return rrule;
  let words = n > 1 ? `every ${n} ${unit}s` : { day: 'daily', week: 'weekly', month: 'monthly', year: 'yearly' }[unit]!;
  const days: string[] = p.BYDAY ? String(p.BYDAY).split(',') : [];
  if (p.FREQ === 'WEEKLY' && days.length) {
    const plain = days.every((d) => DAY_NAMES[d]);
    if (!plain) return rrule;
    const names = days.join(',') === 'MO,TU,WE,TH,FR' ? ['weekday'] : days.map((d) => DAY_NAMES[d]!);
    words = n > 1 ? `${words} on ${listWords(names)}` : `every ${listWords(names)}`;
  } else if (p.FREQ === 'MONTHLY' && days.length === 1) {
    const m = /^([+-]?\d)([A-Z]{2})$/.exec(days[0]!);
    if (!m || !DAY_NAMES[m[2]!]) return rrule;
    words += ` on the ${ordinal(Number(m[1]))} ${DAY_NAMES[m[2]!]}`;
  } else if (p.BYMONTHDAY) words += ` on the ${ordinal(Number(p.BYMONTHDAY))}`;
  else if (days.length) return rrule;
  if (p.UNTIL) {
    const u = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z)?$/.exec(String(p.UNTIL));
    if (!u) return rrule;
    const w = u[4] ? wallAt(Date.UTC(+u[1]!, +u[2]! - 1, +u[3]!, +u[4]!, +u[5]!, +u[6]!), tz) : { year: +u[1]!, month: +u[2]!, day: +u[3]! };
    words += ` until ${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
  }
  if (p.COUNT) words += `, ${p.COUNT} time${p.COUNT === '1' ? '' : 's'}`;
  return words;
}
