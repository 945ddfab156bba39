import { type LocalDateTime, wallFromMs } from '../time/local-date.js';
import { formatOffset, offsetAt, wallAt } from '../time/zone-cache.js';

const DAY = 86_400_000;
const cache = new Map<string, string>();

const stamp = (w: Required<LocalDateTime>) =>
  `${String(w.year).padStart(4, '0')}${String(w.month).padStart(2, '0')}${String(w.day).padStart(2, '0')}T${String(w.hour).padStart(2, '0')}${String(w.minute).padStart(2, '0')}${String(w.second).padStart(2, '0')}`;

/** The instants in [from, to) where `tz` changes its UTC offset, to the second. */
function transitions(tz: string, from: number, to: number): { at: number; before: number; after: number }[] {
  const out: { at: number; before: number; after: number }[] = [];
  let t = from;
  let off = offsetAt(t, tz);
  while (t < to) {
    const next = Math.min(t + DAY, to);
    const o = offsetAt(next, tz);
    if (o !== off) {
      let lo = t;
      let hi = next;
      while (hi - lo > 1000) {
        const mid = Math.floor((lo + hi) / 2000) * 1000;
        if (offsetAt(mid, tz) === off) lo = mid;
        else hi = mid;
      }
      out.push({ at: hi, before: off, after: o });
      off = o;
    }
    t = next;
  }
  return out;
}

/**
 * A VTIMEZONE for an IANA zone over [fromYear, toYear], built from the runtime's tz data: one
 * observance per kind of change, each onset listed (DTSTART + RDATE), so any reader needs no
 * tz database of its own. Onsets are local times in the offset before the change (RFC 5545).
 */
export function vtimezone(tz: string, fromYear: number, toYear: number): string {
  const key = `${tz}|${fromYear}|${toYear}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const from = Date.UTC(fromYear, 0, 1);
  const to = Date.UTC(toYear + 1, 0, 1);
  const changes = transitions(tz, from, to);
  const groups = new Map<string, { kind: 'STANDARD' | 'DAYLIGHT'; before: number; after: number; onsets: string[] }>();
  const first = offsetAt(from, tz);
  groups.set(`S|${first}|${first}`, { kind: 'STANDARD', before: first, after: first, onsets: [stamp(wallAt(from, tz))] });
  for (const c of changes) {
    const kind = c.after > c.before ? 'DAYLIGHT' : 'STANDARD';
    const k = `${kind[0]}|${c.before}|${c.after}`;
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { kind, before: c.before, after: c.after, onsets: [] }));
    // Wall clock of the onset read in the offset in force before it.
    g.onsets.push(stamp(wallFromMs(c.at + c.before)));
  }
  const lines = ['BEGIN:VTIMEZONE', `TZID:${tz}`];
  for (const g of groups.values()) {
    lines.push(`BEGIN:${g.kind}`, `DTSTART:${g.onsets[0]}`);
    for (const r of g.onsets.slice(1)) lines.push(`RDATE:${r}`);
    lines.push(`TZOFFSETFROM:${formatOffset(g.before)}`, `TZOFFSETTO:${formatOffset(g.after)}`, `END:${g.kind}`);
  }
  lines.push('END:VTIMEZONE');
  const text = lines.join('\r\n');
  cache.set(key, text);
  return text;
}
