import { describe, expect, it } from 'vitest';
import { seriesIterator } from '../../../../src/domain/calendar/recurrence.js';
import { checkSeriesLimits } from '../../../../src/domain/calendar/series-limits.js';
import { AppError } from '../../../../src/errors.js';
import { wallFromMs } from '../../../../src/time/local-date.js';
import { canonicalRrule } from '../../../../src/time/rrule.js';
import { instantOf } from '../../../../src/time/zone-cache.js';
import { endsByItself, loadVectors, parseStamp } from './rrule-vectors.mjs';

// Issue 18: the recurrence engine against public vectors (RFC 5545 §3.8.5.3, libical, dateutil,
// ical.js) and DST cases of RFC 5545 §3.3.5. A vector without a zone (floating DTSTART) is run in
// three zones — UTC, New York, Lord Howe (a 30-minute DST shift) — with a UTC UNTIL moved to the
// same wall time there, so the expected wall times hold in each; a vector with a zone (or Z) is
// run in it and compared as instants.

interface Vector {
  source: string;
  name: string;
  rrule: string;
  dtstart: string;
  tzid?: string;
  wall: number;
  date: boolean;
  utc: boolean;
  expected?: string[];
  sourceExpected?: string[];
  refused?: string;
  differs?: string;
}

const vectors = loadVectors() as Vector[];
const FLOATING_ZONES = ['UTC', 'America/New_York', 'Australia/Lord_Howe'];

const fields = wallFromMs;
const compact = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d+/, '');

/** The rule as it reads in `tz`: a UTC UNTIL of a floating vector moved to the same wall time there. */
function ruleIn(v: Vector, tz: string): string {
  if (v.tzid || v.utc) return v.rrule;
  return v.rrule.replace(/UNTIL=(\d{8}T\d{6})Z/, (_, u: string) => `UNTIL=${compact(new Date(instantOf(fields(parseStamp(u).wall), tz)).toISOString())}`);
}

/** What the project's engine gives (instants), as far as the vector lists. */
function expand(v: Vector, tz: string, take: number): number[] {
  const start = instantOf(fields(v.wall), tz);
  const it = seriesIterator({ key: `${v.name}@${tz}`, start, tz, allDay: v.date, rrule: canonicalRrule(ruleIn(v, tz)) });
  const out: number[] = [];
  for (let t = it.next(); t !== undefined && out.length < take; t = it.next()) out.push(t);
  return out;
}

/** The vector's instances as instants in `tz` (a wall time is placed there, a Z stamp is one already). */
const expectedIn = (list: string[], tz: string) =>
  list.map((s) => {
    const p = parseStamp(s);
    return p.utc ? p.wall : instantOf(fields(p.wall), tz);
  });

const zonesOf = (v: Vector) => (v.tzid ? [v.tzid] : v.utc ? ['UTC'] : FLOATING_ZONES);
const shape = (v: Vector, tz: string) => ({
  scheduled_for: new Date(instantOf(fields(v.wall), tz)).toISOString(),
  timezone: tz,
  all_day: v.date,
  rrule: ruleIn(v, tz),
});
const label = (v: Vector) => `${v.source.split(' ')[0]}: ${v.name} — ${v.rrule}`;

describe('RRULE vectors: every instance right, in every zone', () => {
  const expanded = vectors.filter((v) => !v.refused && v.expected!.length);
  it('the table holds the public sets', () => {
    const by = (s: string) => vectors.filter((v) => v.source.startsWith(s)).length;
    expect(by('libical')).toBeGreaterThan(120);
    expect(by('python-dateutil')).toBeGreaterThan(80);
    expect(by('ical.js')).toBeGreaterThan(30);
    expect(vectors.filter((v) => v.tzid).length).toBeGreaterThan(6);
  });

  for (const v of expanded)
    for (const tz of zonesOf(v))
      it(`${label(v)} (${tz})`, () => {
        expect(() => checkSeriesLimits(shape(v, tz))).not.toThrow();
        const want = expectedIn(v.expected!, tz);
        // A finite rule must also end where the vector ends; an endless one is compared as far as listed.
        const got = expand(v, tz, endsByItself(v.rrule) ? want.length + 5 : want.length);
        const show = (a: number[]) => a.map((t) => (v.date ? compact(new Date(instantOf(fields(t), 'UTC')).toISOString()) : new Date(t).toISOString()));
        expect(show(got), v.differs ? `kairos answer (${v.differs})` : undefined).toEqual(show(want));
      });
});

describe('RRULE vectors the project refuses by design: 422 naming the rule part or the limit', () => {
  const refused = vectors.filter((v) => v.refused || v.expected?.length === 0);
  for (const v of refused)
    it(label(v), () => {
      let err: unknown;
      try {
        checkSeriesLimits(shape(v, zonesOf(v)[0]!));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(AppError);
      const e = err as AppError;
      expect(e.status).toBe(422);
      expect(e.code).toBe('validation_failed');
      const details = (e.details ?? []) as { path: string; message: string; limit?: string }[];
      expect(details.some((d) => d.path === 'rrule')).toBe(true);
      if (v.refused) expect(`${e.message} ${details.map((d) => d.limit ?? '').join(' ')}`).toContain(v.refused);
      else expect(e.message).toMatch(/gives no occurrence/);
    });
});
