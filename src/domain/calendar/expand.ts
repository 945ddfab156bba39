/**
 * RFC 5545 RRULE expansion in floating wall time, on plain integers.
 *
 * Why not ical.js's RecurIterator: one `next()` of it can loop forever (FREQ=DAILY;BYMONTHDAY=-1
 * never matches its contract check; FREQ=DAILY;BYDAY=1MO neither), several rule shapes make it
 * throw, and each occurrence costs a few dozen microseconds in Time object churn. Here every loop
 * is bounded by construction: a period (year, month, week, day, hour) yields at most 366 days
 * times the rule's times of day, and a search that finds nothing for MAX_EMPTY_YEARS of wall time
 * ends the series. Every unit of that work (a day tested against the rule, a candidate time, a
 * skipped stretch) is counted on a StepMeter, so callers can cap the work of a request by a count
 * that is the same on every machine (`max_expansion_steps`) instead of by a clock.
 *
 * Semantics follow RFC 5545 §3.3.10 (the expand/limit table) the way python-dateutil and libical
 * read it: DTSTART is an occurrence when the rule gives it (a DTSTART out of step with its rule is
 * "undefined" in the RFC; ical.js keeps it for some rules and not others); without BYxxx day parts
 * a YEARLY rule keeps DTSTART's month and day, MONTHLY its day of month, WEEKLY its weekday; times
 * of day default to DTSTART's. A wall time is `Date.UTC(y, m - 1, d, h, mi, s)` of the local clock.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
/**
 * A search that finds nothing for this long ends the series. The longest gaps of real rules are
 * a few decades (February 29 on a Monday: 28 years); a rule that can never match (the first
 * Monday of a month on its 15th) would otherwise be searched until year 9999.
 */
export const MAX_EMPTY_YEARS = 100;
/** Wall times past this are not expanded (year 9999, the end of iCalendar's DATE-TIME). */
const END_OF_TIME = Date.UTC(9999, 11, 31, 23, 59, 59);

export type Freq = 'HOURLY' | 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';

/** A weekday of BYDAY: `ord` 0 for every such weekday, ±n for the n-th in the month or year. */
export interface ByDay {
  ord: number;
  /** 0 = Monday … 6 = Sunday. */
  wd: number;
}

/** A parsed rule (values as in the RRULE; UNTIL already moved to the series' wall clock). */
export interface Rule {
  freq: Freq;
  interval: number;
  count?: number;
  /** Inclusive bound, wall ms. */
  until?: number;
  bySecond?: number[];
  byMinute?: number[];
  byHour?: number[];
  byDay?: ByDay[];
  byMonthDay?: number[];
  byYearDay?: number[];
  byWeekNo?: number[];
  byMonth?: number[];
  bySetPos?: number[];
  /** 0 = Monday … 6 = Sunday. */
  wkst: number;
}

export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;

const nums = (v: string | undefined) => (v === undefined ? undefined : v.split(',').map(Number));

/**
 * Parse a canonical RRULE (see canonicalRrule: already checked). UNTIL is left to the caller,
 * which knows the series' zone; pass it in wall ms as `untilWall`.
 */
export function parseRule(canonical: string, untilWall?: number): Rule {
  const parts = new Map<string, string>();
  for (const piece of canonical.split(';')) {
    const i = piece.indexOf('=');
    parts.set(piece.slice(0, i), piece.slice(i + 1));
  }
  const byDay = parts
    .get('BYDAY')
    ?.split(',')
    .map((d) => {
      const m = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(d)!;
      return { ord: m[1] ? Number(m[1]) : 0, wd: WEEKDAYS.indexOf(m[2] as (typeof WEEKDAYS)[number]) };
    });
  const rule: Rule = {
    freq: parts.get('FREQ') as Freq,
    interval: Number(parts.get('INTERVAL') ?? 1),
    wkst: parts.has('WKST') ? WEEKDAYS.indexOf(parts.get('WKST') as (typeof WEEKDAYS)[number]) : 0,
  };
  const set = <K extends keyof Rule>(k: K, v: Rule[K] | undefined) => {
    if (v !== undefined) rule[k] = v;
  };
  set('count', parts.has('COUNT') ? Number(parts.get('COUNT')) : undefined);
  set('until', untilWall);
  set('bySecond', nums(parts.get('BYSECOND')));
  set('byMinute', nums(parts.get('BYMINUTE')));
  set('byHour', nums(parts.get('BYHOUR')));
  set('byDay', byDay);
  set('byMonthDay', nums(parts.get('BYMONTHDAY')));
  set('byYearDay', nums(parts.get('BYYEARDAY')));
  set('byWeekNo', nums(parts.get('BYWEEKNO')));
  set('byMonth', nums(parts.get('BYMONTH')));
  set('bySetPos', nums(parts.get('BYSETPOS')));
  return rule;
}

// ------------------------------------------------------------------ calendar arithmetic on day numbers

/** Days since 1970-01-01 of a wall date. */
const dayNum = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / DAY;
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysInMonth = (y: number, m: number) => (m === 2 ? (isLeap(y) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!);
/** 0 = Monday … 6 = Sunday (1970-01-01 was a Thursday). */
const weekday = (n: number) => (((n + 3) % 7) + 7) % 7;

interface DayInfo {
  n: number;
  y: number;
  m: number;
  d: number;
}

function dayInfo(n: number): DayInfo {
  const t = new Date(n * DAY);
  return { n, y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

/** First day of week 1 of a year (RFC 5545: the first week with at least four days in the year). */
function week1Start(y: number, wkst: number): number {
  const jan1 = dayNum(y, 1, 1);
  const off = (weekday(jan1) - wkst + 7) % 7;
  return off <= 3 ? jan1 - off : jan1 - off + 7;
}

/** The week number of a day, positive and negative (counted from the end of its week-year). */
function weekNumbers(n: number, wkst: number): [number, number] {
  const start = n - ((weekday(n) - wkst + 7) % 7);
  const y = dayInfo(start + 3).y;
  const w1 = week1Start(y, wkst);
  const weeks = (week1Start(y + 1, wkst) - w1) / 7;
  const no = (start - w1) / 7 + 1;
  return [no, no - weeks - 1];
}

// ------------------------------------------------------------------ the iterator

/** Work done by an expansion, in steps: the same rule always takes the same steps, on any machine. */
export interface StepMeter {
  steps: number;
}

/** An expansion in progress: `next()` gives wall times ascending, then undefined for good. */
export interface RuleIterator {
  next(): number | undefined;
}

/**
 * Iterate a rule from DTSTART (wall ms). Every call does bounded work: at most one period's
 * candidates are built per loop turn, and the loop stops after MAX_EMPTY_YEARS without a match.
 * The work is counted on `meter` (one step per day tested, per candidate and per period).
 */
export function iterateRule(rule: Rule, dtstart: number, meter: StepMeter = { steps: 0 }): RuleIterator {
  const s = new Date(dtstart);
  const start = {
    y: s.getUTCFullYear(),
    m: s.getUTCMonth() + 1,
    d: s.getUTCDate(),
    h: s.getUTCHours(),
    mi: s.getUTCMinutes(),
    sec: s.getUTCSeconds(),
    n: Math.floor(dtstart / DAY),
  };
  const { freq, interval } = rule;
  const hasDayParts = Boolean(rule.byDay || rule.byMonthDay || rule.byYearDay || rule.byWeekNo);
  // RFC 5545 defaults: what DTSTART fixes when the rule does not say. Read the way libical and
  // ical.js do: a YEARLY rule with only BYMONTHDAY keeps DTSTART's month ("the 29th, yearly" from
  // February 29 is Feb 29 every leap year, not the 29th of every month), and a YEARLY rule with
  // only BYWEEKNO keeps DTSTART's weekday ("week 20" from a Tuesday is that week's Tuesday).
  // python-dateutil expands both over the whole year or week instead (see docs/calendar.md).
  const onlyMonthDays = freq === 'YEARLY' && rule.byMonthDay && !rule.byDay && !rule.byYearDay && !rule.byWeekNo;
  const onlyWeekNos = freq === 'YEARLY' && rule.byWeekNo && !rule.byDay && !rule.byMonthDay && !rule.byYearDay;
  const byMonth = rule.byMonth ?? (freq === 'YEARLY' && (!hasDayParts || onlyMonthDays) ? [start.m] : undefined);
  const byMonthDay = rule.byMonthDay ?? ((freq === 'YEARLY' || freq === 'MONTHLY') && !hasDayParts ? [start.d] : undefined);
  const byDay = rule.byDay ?? ((freq === 'WEEKLY' && !hasDayParts) || onlyWeekNos ? [{ ord: 0, wd: weekday(start.n) }] : undefined);
  const plainDays = byDay && new Set(byDay.filter((b) => b.ord === 0).map((b) => b.wd));
  const nthDays = byDay?.filter((b) => b.ord !== 0);
  const monthSet = byMonth && new Set(byMonth);

  const sortedUnique = (a: number[]) => [...new Set(a)].sort((x, y) => x - y);
  const hours = sortedUnique(rule.byHour ?? [start.h]);
  const minutes = sortedUnique(rule.byMinute ?? [start.mi]);
  const seconds = sortedUnique(rule.bySecond ?? [start.sec]);
  /** Offsets (ms) into a day of the times of day a DAILY-or-longer period gives. */
  const dayTimes: number[] = [];
  for (const h of hours) for (const mi of minutes) for (const sec of seconds) dayTimes.push(h * HOUR + mi * 60_000 + sec * 1000);
  /** Offsets (ms) into an hour of an HOURLY period. */
  const hourTimes: number[] = [];
  for (const mi of minutes) for (const sec of seconds) hourTimes.push(mi * 60_000 + sec * 1000);
  const hourSet = rule.byHour && new Set(rule.byHour);

  /** Whether a day passes the day-level parts (BYDAY ordinals count within ordinalScope). */
  function dayMatches(di: DayInfo): boolean {
    if (monthSet && !monthSet.has(di.m)) return false;
    if (rule.byWeekNo) {
      const [pos, neg] = weekNumbers(di.n, rule.wkst);
      if (!rule.byWeekNo.includes(pos) && !rule.byWeekNo.includes(neg)) return false;
    }
    if (rule.byYearDay) {
      const doy = di.n - dayNum(di.y, 1, 1) + 1;
      const len = isLeap(di.y) ? 366 : 365;
      if (!rule.byYearDay.includes(doy) && !rule.byYearDay.includes(doy - len - 1)) return false;
    }
    if (byMonthDay) {
      const dim = daysInMonth(di.y, di.m);
      if (!byMonthDay.includes(di.d) && !byMonthDay.includes(di.d - dim - 1)) return false;
    }
    if (byDay) {
      const wd = weekday(di.n);
      if (!plainDays!.has(wd)) {
        let ok = false;
        for (const b of nthDays!) {
          if (b.wd !== wd) continue;
          const [scopeFirst, scopeLast] = ordinalScope(di);
          const pos = Math.floor((di.n - scopeFirst) / 7) + 1;
          const neg = -(Math.floor((scopeLast - di.n) / 7) + 1);
          if (b.ord === pos || b.ord === neg) {
            ok = true;
            break;
          }
        }
        if (!ok) return false;
      }
    }
    return true;
  }

  /**
   * BYDAY ordinals count within the month for MONTHLY (and YEARLY with BYMONTH), within the
   * year for YEARLY otherwise; other frequencies have no ordinals (refused by the checks).
   */
  function ordinalScope(di: DayInfo): [number, number] {
    if (freq === 'MONTHLY' || (freq === 'YEARLY' && rule.byMonth)) return [dayNum(di.y, di.m, 1), dayNum(di.y, di.m, daysInMonth(di.y, di.m))];
    return [dayNum(di.y, 1, 1), dayNum(di.y, 12, 31)];
  }

  // Period cursor: year/month for YEARLY/MONTHLY, a day number for WEEKLY/DAILY, an hour index for HOURLY.
  let py = start.y;
  let pm = start.m;
  let pday = freq === 'WEEKLY' ? start.n - ((weekday(start.n) - rule.wkst + 7) % 7) : start.n;
  let phour = Math.floor(dtstart / HOUR);
  let hourDay = Number.NaN;
  let hd: DayInfo = dayInfo(start.n);
  let hdMatches = false;

  let buffer: number[] = [];
  let bi = 0;
  let emitted = 0;
  let lastFound = dtstart;
  let done = false;

  /** Candidates of the current period (sorted wall ms), then move the cursor to the next period. */
  function fillPeriod(): number {
    meter.steps++;
    const days: number[] = [];
    let periodStart: number;
    if (freq === 'YEARLY' || freq === 'MONTHLY') {
      const months = freq === 'YEARLY' ? (monthSet && !rule.byWeekNo ? [...monthSet].sort((a, b) => a - b) : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]) : [pm];
      periodStart = Date.UTC(py, (freq === 'YEARLY' ? 1 : pm) - 1, 1);
      for (const m of months) {
        const dim = daysInMonth(py, m);
        const first = dayNum(py, m, 1);
        for (let d = 1; d <= dim; d++) {
          const di: DayInfo = { n: first + d - 1, y: py, m, d };
          if (dayMatches(di)) days.push(di.n);
          meter.steps++;
        }
      }
      if (freq === 'YEARLY') py += interval;
      else {
        const idx = py * 12 + (pm - 1) + interval;
        py = Math.floor(idx / 12);
        pm = (idx % 12) + 1;
      }
    } else if (freq === 'DAILY' && monthSet && !monthSet.has(dayInfo(pday).m)) {
      // A month BYMONTH leaves out is skipped whole (to its first day on the rule's grid).
      periodStart = pday * DAY;
      const di = dayInfo(pday);
      const next = dayNum(di.y, di.m + 1, 1);
      pday += Math.max(1, Math.ceil((next - pday) / interval)) * interval;
      return finish([], periodStart);
    } else if (freq === 'WEEKLY' || freq === 'DAILY') {
      const len = freq === 'WEEKLY' ? 7 : 1;
      periodStart = pday * DAY;
      for (let n = pday; n < pday + len; n++) {
        if (dayMatches(dayInfo(n))) days.push(n);
      }
      meter.steps += len;
      pday += len * interval;
    } else {
      // HOURLY: one hour; a day that fails the day parts is skipped whole (to the first hour of
      // the next day on the rule's grid), so a sparse rule does not walk its hours one by one.
      periodStart = phour * HOUR;
      const n = Math.floor(phour / 24);
      const out: number[] = [];
      // One day's facts serve its 24 hours (a Date and the day parts per hour would cost 4×).
      if (n !== hourDay) {
        hourDay = n;
        hd = dayInfo(n);
        hdMatches = dayMatches(hd);
      }
      if (monthSet && !monthSet.has(hd.m)) {
        const next = dayNum(hd.y, hd.m + 1, 1) * 24;
        phour += Math.max(1, Math.ceil((next - phour) / interval)) * interval;
      } else if (hdMatches) {
        if (!hourSet || hourSet.has(phour % 24)) for (const t of hourTimes) out.push(phour * HOUR + t);
        meter.steps += out.length;
        phour += interval;
      } else {
        const nextDay = (n + 1) * 24;
        phour += Math.max(1, Math.ceil((nextDay - phour) / interval)) * interval;
      }
      return finish(out, periodStart);
    }
    const out: number[] = [];
    for (const n of days) for (const t of dayTimes) out.push(n * DAY + t);
    meter.steps += out.length;
    return finish(out, periodStart);
  }

  /** Apply BYSETPOS to a period's sorted candidates and keep them in the buffer. */
  function finish(cands: number[], periodStart: number): number {
    if (rule.bySetPos && cands.length) {
      const picked: number[] = [];
      for (const p of rule.bySetPos) {
        const i = p > 0 ? p - 1 : cands.length + p;
        if (i >= 0 && i < cands.length) picked.push(cands[i]!);
      }
      cands = sortedUnique(picked);
    }
    buffer = cands;
    bi = 0;
    return periodStart;
  }

  const emptyLimit = MAX_EMPTY_YEARS * 366 * DAY;

  return {
    next(): number | undefined {
      if (done) return undefined;
      if (rule.count !== undefined && emitted >= rule.count) return end();
      for (;;) {
        while (bi < buffer.length) {
          const t = buffer[bi++]!;
          if (t < dtstart) continue;
          if ((rule.until !== undefined && t > rule.until) || t > END_OF_TIME) return end();
          emitted++;
          lastFound = t;
          return t;
        }
        const periodStart = fillPeriod();
        if (periodStart > END_OF_TIME || (rule.until !== undefined && periodStart > rule.until)) return end();
        if (buffer.length === 0 && periodStart - lastFound > emptyLimit) return end();
      }
    },
  };

  function end(): undefined {
    done = true;
    buffer = [];
    return undefined;
  }
}
