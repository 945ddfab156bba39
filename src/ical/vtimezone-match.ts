import ICAL from 'ical.js';
import { offsetAt } from '../time/zone-cache.js';

let zones: string[] | undefined;

/**
 * An IANA zone with the same UTC offsets, month by month over two years, as a file's own
 * VTIMEZONE with this TZID (Exchange writes names such as "GMT +0100 (Standard) / GMT +0200
 * (Daylight)" that no tz database knows). Undefined when there is no such VTIMEZONE or no match.
 */
export function matchVtimezone(tzid: string, vtimezones: string[][], aroundMs: number, prefer: string[] = []): string | undefined {
  const block = vtimezones.find((lines) => lines.some((l) => /^TZID[;:]/i.test(l) && l.slice(l.indexOf(':') + 1).replace(/^"|"$/g, '') === tzid));
  if (!block) return undefined;
  let tz: ICAL.Timezone;
  try {
    tz = new ICAL.Timezone(new ICAL.Component(ICAL.parse(block.join('\r\n'))));
  } catch {
    return undefined;
  }
  const year = new Date(aroundMs).getUTCFullYear();
  const samples: { at: number; offset: number }[] = [];
  for (let i = 0; i < 24; i++) {
    const y = year + Math.floor(i / 12);
    const m = (i % 12) + 1;
    let offset: number;
    try {
      offset = tz.utcOffset(ICAL.Time.fromData({ year: y, month: m, day: 15, hour: 12 })) * 1000;
    } catch {
      return undefined;
    }
    samples.push({ at: Date.UTC(y, m - 1, 15, 12) - offset, offset });
  }
  zones ??= Intl.supportedValuesOf('timeZone');
  for (const cand of [...prefer, ...zones]) {
    if (samples.every((s) => offsetAt(s.at, cand) === s.offset)) return cand;
  }
  return undefined;
}
