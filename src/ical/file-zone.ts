import { createRequire } from 'node:module';
import ICAL from 'ical.js';
import type { LocalDateTime } from '../time/local-date.js';
import { isTimeZone } from '../time/zoned-time.js';
import { matchVtimezone } from './vtimezone-match.js';

/**
 * What a TZID parameter names, in the order RFC 5545 and the programs that write files allow:
 * UTC; an IANA name (RFC 5545 §3.2.19 leaves the name free, and everyone writes IANA's); an IANA
 * name behind a vendor prefix (`/freeassociation.sourceforge.net/Tzfile/Europe/Berlin`, the
 * "globally unique" form of §3.8.3.1); a Windows name; the file's own VTIMEZONE, matched to an
 * IANA zone with the same offsets or else read by its own rules (§3.6.5); a bare UTC offset in
 * the name (`UTC+11`, `(UTC-03:00) Brasília`). Undefined when nothing says what it means.
 */
export interface ResolvedZone {
  /** The IANA zone kept with the event (its wall clock drives the recurrence). */
  tz: string;
  /** For a zone only the file defines: the instant of a wall time by the file's own rules. */
  instant?: (w: Required<LocalDateTime>) => number;
  /** Why the TZID was read as it was (a warning), when it is not an IANA name as written. */
  note?: string;
}

const require = createRequire(import.meta.url);
let windows: Record<string, { iana?: string[] }> | undefined;
const windowsZone = (name: string): string | undefined => {
  windows ??= require('node-ical/windowsZones.json') as Record<string, { iana?: string[] }>;
  const hit = Object.hasOwn(windows, name) ? windows[name]?.iana?.[0] : undefined;
  return hit && isTimeZone(hit) ? hit : undefined;
};

/** `Etc/GMT-11` for +11:00 (POSIX signs), `UTC` for 0; undefined for an offset of no whole hour. */
export function fixedZone(offsetMs: number): string | undefined {
  if (offsetMs === 0) return 'UTC';
  const h = offsetMs / 3_600_000;
  if (!Number.isInteger(h) || Math.abs(h) > 14) return undefined;
  const z = `Etc/GMT${h > 0 ? '-' : '+'}${Math.abs(h)}`;
  return isTimeZone(z) ? z : undefined;
}

function vendorSuffix(tzid: string): string | undefined {
  const parts = tzid.split('/').filter(Boolean);
  for (let i = 0; i < parts.length - 1; i++) {
    const cand = parts.slice(i).join('/');
    if (isTimeZone(cand)) return cand;
  }
  return undefined;
}

/** A UTC offset written in the name itself: `UTC+11`, `GMT-0330`, `(UTC-03:00) Brasília`. */
function offsetInName(tzid: string): number | undefined {
  const m = /^\(?(?:UTC|GMT)\s*([+-])(\d{1,2})(?::?(\d{2}))?\)?(?:\s|$)/i.exec(tzid.trim());
  if (!m) return undefined;
  return (m[1] === '-' ? -1 : 1) * (+m[2]! * 60 + +(m[3] ?? 0)) * 60_000;
}

function fileTimezone(tzid: string, vtimezones: string[][]): ICAL.Timezone | undefined {
  const block = vtimezones.find((lines) => lines.some((l) => /^TZID[;:]/i.test(l) && l.slice(l.indexOf(':') + 1).replace(/^"|"$/g, '') === tzid));
  if (!block) return undefined;
  try {
    const tz = new ICAL.Timezone(new ICAL.Component(ICAL.parse(block.join('\r\n'))));
    // A VTIMEZONE without a usable observance has no offsets to read times by.
    tz.utcOffset(ICAL.Time.fromData({ year: 2000, month: 1, day: 1 }));
    return tz;
  } catch {
    return undefined;
  }
}

/** Resolve a TZID (quotes removed) for a file; `aroundMs` is a rough instant of its use (for offset matching). */
export function resolveTzid(tzid: string, vtimezones: string[][], aroundMs: number, prefer: string[]): ResolvedZone | undefined {
  if (/^(Etc\/)?(UTC|GMT|Z|Zulu|Universal)$/i.test(tzid)) return { tz: 'UTC' };
  if (isTimeZone(tzid)) return { tz: tzid };
  const suffix = vendorSuffix(tzid);
  if (suffix) return { tz: suffix, note: `time zone "${tzid}" read as ${suffix}` };
  const win = windowsZone(tzid);
  if (win) return { tz: win, note: `time zone "${tzid}" read as ${win}` };
  const match = matchVtimezone(tzid, vtimezones, aroundMs, prefer);
  if (match) return { tz: match, note: `time zone "${tzid}" read as ${match} (same offsets)` };
  const own = fileTimezone(tzid, vtimezones);
  if (own) {
    const instant = (w: Required<LocalDateTime>) => ICAL.Time.fromData(w, own).toUnixTime() * 1000;
    const offset = own.utcOffset(ICAL.Time.fromData({ year: new Date(aroundMs).getUTCFullYear(), month: 1, day: 15 })) * 1000;
    const tz = fixedZone(offset) ?? 'UTC';
    return { tz, instant, note: `time zone "${tzid}" matches no IANA zone: times read by the file's own VTIMEZONE, recurrences kept in ${tz}` };
  }
  const off = offsetInName(tzid);
  if (off !== undefined) {
    const tz = fixedZone(off);
    const instant = (w: Required<LocalDateTime>) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - off;
    return { tz: tz ?? 'UTC', instant, note: `time zone "${tzid}" read as the fixed offset in its name` };
  }
  return undefined;
}
