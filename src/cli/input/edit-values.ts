/**
 * Parsing what the person types while editing an action; each returns the value for the API or
 * a message saying what to type (shown by the prompt as they type).
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:MM` in the terminal's zone, for defaults of the time prompt. */
export function localInput(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * A start time: `YYYY-MM-DD HH:MM` (local), `HH:MM` (local, same day as `base`), or ISO 8601
 * with an offset. Returns an ISO instant.
 */
export function parseTime(text: string, base: string): { ok: string } | { error: string } {
  const t = text.trim();
  const hint = 'type YYYY-MM-DD HH:MM, HH:MM, or an ISO 8601 time with offset';
  let m = /^(\d{1,2}):(\d{2})$/.exec(t);
  if (m) {
    const d = new Date(base);
    const [h, min] = [Number(m[1]), Number(m[2])];
    if (h > 23 || min > 59) return { error: `${t} is not a time of day: ${hint}` };
    d.setHours(h, min, 0, 0);
    return { ok: d.toISOString() };
  }
  m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})$/.exec(t);
  if (m) {
    const [y, mo, da, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
    const d = new Date(y, mo - 1, da, h, mi);
    if (d.getFullYear() !== y || d.getMonth() !== mo - 1 || d.getDate() !== da || h > 23 || mi > 59)
      return { error: `${t} is not a real date and time: ${hint}` };
    return { ok: d.toISOString() };
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
