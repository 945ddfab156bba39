// Reads rrule-vectors.txt: public RRULE test vectors (RFC 5545 §3.8.5.3, libical, python-dateutil,
// ical.js) as blocks of NAME / RRULE / DTSTART / INSTANCES (or REFUSED, or DIFFERS + KAIROS).
// Plain JavaScript so that both the vitest table (rrule-vectors.test.ts) and the engine comparison
// (bench/rrule-engines.mjs) read the same file.
import { readFileSync } from 'node:fs';

/** A wall time or instant of the file: `YYYYMMDD`, `YYYYMMDDTHHMMSS` or `…Z`. */
export function parseStamp(s) {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(s);
  if (!m) throw new Error(`bad stamp ${s}`);
  const [y, mo, d, h = '0', mi = '0', se = '0'] = m.slice(1);
  return { wall: Date.UTC(+y, +mo - 1, +d, +h, +mi, +se), date: m[4] === undefined, utc: m[7] === 'Z' };
}

/**
 * Every vector of the file: `{source, name, rrule, dtstart, tzid?, date, utc, expected?, refused?,
 * differs?}`. `expected` lists stamps (strings as in the file); `refused` names the rule part or
 * limit the project refuses the rule for; `differs` is the reason kairos gives `expected` (the
 * KAIROS line) where the source says otherwise (`sourceExpected`).
 */
export function loadVectors(path = new URL('./rrule-vectors.txt', import.meta.url)) {
  const out = [];
  let source = '';
  let cur;
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const line = raw.trim();
    if (line.startsWith('@source ')) source = line.slice(8);
    else if (line.startsWith('NAME:')) out.push((cur = { source, name: line.slice(5) }));
    else if (line.startsWith('RRULE:')) cur.rrule = line.slice(6);
    else if (line.startsWith('DTSTART')) {
      const [params, value] = [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)];
      const tzid = /TZID=([^;:]+)/.exec(params)?.[1];
      Object.assign(cur, { dtstart: value, tzid, ...parseStamp(value) });
    } else if (line.startsWith('INSTANCES:')) cur.expected = line.slice(10) ? line.slice(10).split(',') : [];
    else if (line.startsWith('REFUSED:')) cur.refused = line.slice(8);
    else if (line.startsWith('DIFFERS:')) cur.differs = line.slice(8);
    else if (line.startsWith('KAIROS:')) {
      cur.sourceExpected = cur.expected;
      cur.expected = line.slice(7) ? line.slice(7).split(',') : [];
    }
  }
  return out;
}

/** Whether a rule ends by itself (COUNT or UNTIL): then every instance is compared, else the first ones. */
export const endsByItself = (rrule) => /(^|;)(COUNT|UNTIL)=/.test(rrule);
