import { parseLocalDate } from '../../time/local-date.js';
import { fromZoned, toZoned } from '../../time/zoned-time.js';

/**
 * Parsing what the person types while editing an action; each returns the value for the API or
 * a message saying what to type (shown by the prompt as they type). Wall times are read and shown
 * in the profile's zone `tz`, never the terminal's, so the menu agrees with the plan above it.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:MM` in `tz`, for defaults of the time prompt. */
export function localInput(iso: string, tz: string): string {
  const l = toZoned(new Date(iso), tz);
  return `${l.year}-${pad(l.month)}-${pad(l.day)} ${pad(l.hour)}:${pad(l.minute)}`;
}

/**
 * A start time: `YYYY-MM-DD HH:MM` (in `tz`), `HH:MM` (in `tz`, the same local day as `base`), or
 * ISO 8601 with an offset. Returns an ISO instant.
 */
export function parseTime(text: string, base: string, tz: string): { ok: string } | { error: string } {
  const t = text.trim();
  const hint = 'type YYYY-MM-DD HH:MM, HH:MM, or an ISO 8601 time with offset';
  let m = /^(\d{1,2}):(\d{2})$/.exec(t);
  if (m) {
    const [hour, minute] = [Number(m[1]), Number(m[2])];
    if (hour > 23 || minute > 59) return { error: `${t} is not a time of day: ${hint}` };
    const day = toZoned(new Date(base), tz);
    return { ok: fromZoned({ year: day.year, month: day.month, day: day.day, hour, minute }, tz).toISOString() };
  }
  m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})$/.exec(t);
  if (m) {
    const date = parseLocalDate(`${m[1]}-${m[2]}-${m[3]}`);
    const [hour, minute] = [Number(m[4]), Number(m[5])];
    if (!date || hour > 23 || minute > 59) return { error: `${t} is not a real date and time: ${hint}` };
    return { ok: fromZoned({ ...date, hour, minute }, tz).toISOString() };
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(t) && !Number.isNaN(Date.parse(t))) return { ok: new Date(t).toISOString() };
  return { error: hint };
}

export function parseDuration(text: string): { ok: number } | { error: string } {
  const t = text.trim();
  const m = /^(?:(\d+)h)?\s*(?:(\d+)m?)?$/.exec(t);
  if (!t || !m || (m[1] === undefined && m[2] === undefined)) return { error: 'type minutes (45), or hours and minutes (1h30m)' };
  const minutes = Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0);
  if (minutes < 1) return { error: 'at least 1 minute' };
  if (minutes > 366 * 1440) return { error: 'at most a year' };
  return { ok: minutes };
}

export function parseTitle(text: string): { ok: string } | { error: string } {
  const t = text.trim();
  if (!t) return { error: 'a title cannot be empty' };
  if (t.length > 1000) return { error: 'at most 1000 characters' };
  return { ok: t };
}
