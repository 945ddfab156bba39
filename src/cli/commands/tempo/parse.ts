import { ACTION_KINDS, type ActionKind } from '../../../contracts/tempo.js';
import { formatHHMM, WEEKDAY_NAMES, WEEKDAYS, type Weekday } from '../../../time/local-date.js';
import { tagMinutes } from '../../../time/tags.js';
import { usage } from '../../command-runtime.js';
import { isNone } from './limit-arg.js';

/**
 * What the tempo verbs accept on the command line, turned into the API's shapes. A malformed
 * argument is a usage error (exit 2); a well-formed but invalid value is left to the API (422).
 */

const DASH = /\s*[-–—]\s*|\s+to\s+/;

/** `9`, `09:30`, `930`, `9am`, `12:15pm` → minutes after midnight. */
function wallMinutes(s: string): number | undefined {
  const m = /^(\d{1,2})(?::?(\d{2}))?\s*(am|pm)?$/i.exec(s.trim());
  if (!m) return undefined;
  let h = Number(m[1]);
  const min = Number(m[2] ?? 0);
  const mer = m[3]?.toLowerCase();
  if (mer) {
    if (h < 1 || h > 12) return undefined;
    h = (h % 12) + (mer === 'pm' ? 12 : 0);
  }
  return h <= 23 && min <= 59 ? h * 60 + min : undefined;
}

/** `06:00-12:00`, `22:00–06:00`, `9-17`, `9am to 5pm` → `{start, end}` as HH:MM. */
export function parseWallRange(text: string): { start: string; end: string } {
  const parts = text.trim().split(DASH);
  const [a, b] = parts.map(wallMinutes);
  if (parts.length !== 2 || a === undefined || b === undefined)
    throw usage(`"${text}" is not a time range: write it as HH:MM-HH:MM, e.g. 06:00-12:00 (an end before the start crosses midnight).`);
  return { start: formatHHMM(a), end: formatHHMM(b) };
}

export const isWallRange = (text: string) => {
  try {
    parseWallRange(text);
    return true;
  } catch {
    return false;
  }
};

const DAY_WORDS: Record<string, readonly Weekday[] | undefined> = {
  daily: undefined,
  all: undefined,
  everyday: undefined,
  weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'],
  weekends: ['sat', 'sun'],
  weekend: ['sat', 'sun'],
};

/** `mon`, `tues`, `Wednesday` → the day; at least three letters of its name. */
function day(word: string): Weekday | undefined {
  const w = word.trim().toLowerCase();
  const i = w.length >= 3 ? WEEKDAY_NAMES.findIndex((f) => f.startsWith(w)) : -1;
  return i < 0 ? undefined : WEEKDAYS[i];
}

/**
 * `mon-fri`, `mon,wed,fri`, `fri-mon` (wraps), `weekdays`, `weekends`, `daily` → the days in week
 * order; undefined means every day.
 */
export function parseDays(text: string): Weekday[] | undefined {
  const t = text.trim().toLowerCase();
  if (t in DAY_WORDS) return DAY_WORDS[t] ? [...DAY_WORDS[t]!] : undefined;
  const picked = new Set<Weekday>();
  for (const part of t.split(/\s*,\s*/)) {
    const ends = part.split(/\s*[-–]\s*/);
    const [a, b] = ends.map(day);
    if (ends.length === 1 && a) picked.add(a);
    else if (ends.length === 2 && a && b) {
      for (let i = WEEKDAYS.indexOf(a); ; i = (i + 1) % 7) {
        picked.add(WEEKDAYS[i]!);
        if (WEEKDAYS[i] === b) break;
      }
    } else throw usage(`"${text}" is not a set of days: use e.g. mon-fri, mon,wed,fri, weekends or daily.`);
  }
  return picked.size === 7 ? undefined : WEEKDAYS.filter((d) => picked.has(d));
}

export function parseKind(text: string): ActionKind {
  const k = text.trim().toLowerCase().replace(/-/g, '_');
  if (!(ACTION_KINDS as readonly string[]).includes(k)) throw usage(`"${text}" is not an action kind: use ${ACTION_KINDS.join(', ')}.`);
  return k as ActionKind;
}

/** `1/day`, `2/week`, `3 per week` → a cadence rule; `none` → null (remove). */
export function parseCadence(text: string): { max: number; per: 'day' | 'week' } | null {
  if (isNone(text)) return null;
  const m = /^(\d+)\s*(?:\/|per|a|an)\s*(day|week)$/i.exec(text.trim());
  if (!m) throw usage(`"${text}" is not a cadence: write N/day or N/week (e.g. 1/day), or "none" to remove it.`);
  return { max: Number(m[1]), per: m[2]!.toLowerCase() as 'day' | 'week' };
}

/** A duration as the tag grammar writes it (`45m`, `2h`, `1h30m`) → minutes. */
export function parseDuration(text: string): number {
  const m = tagMinutes(text);
  if (m === undefined) throw usage(`"${text}" is not a duration: write e.g. 45m, 2h or 1h30m.`);
  return m;
}
