import { formatHHMM, parseHHMM } from '../../time/local-date.js';
import { WAKING_HOURS } from '../tempo/free-slots.js';
import type { WeeklyRange } from '../tempo/intervals.js';
import { DEFAULT_TIME_RANGES } from '../tempo/profile.js';
import type { Item } from './interpret.js';
import type { PlannerProfile } from './types.js';

/** A window of the day the planner searches, and how to name it in a reason. */
export interface DayWindow {
  range: WeeklyRange;
  /** e.g. "@morning (06:00–12:00)". */
  label: string;
  /** The tag the window comes from, recorded on the action. */
  tag?: string;
  /** Whether the person (or their tag mappings) named it, as opposed to the default. */
  named: boolean;
}

/** "tonight": today from 17:00 to the end of the day (docs/planner.md conventions). */
const TONIGHT: WeeklyRange = { start: '17:00', end: '23:59' };

const describe = (name: string, r: WeeklyRange) => `${name} (${r.start}–${r.end})`;

export function profileRange(profile: PlannerProfile, tag: string): WeeklyRange | undefined {
  return profile.time_ranges[tag] ?? DEFAULT_TIME_RANGES[tag];
}

/** The tag a task maps to in the profile: the whole title, a two-word phrase, or a word. */
export function mappedTagOf(profile: PlannerProfile, item: Pick<Item, 'title' | 'words'>): string | undefined {
  const maps = profile.tag_mappings;
  const title = item.title.toLowerCase().replace(/\s+/g, ' ').trim();
  if (maps[title]) return maps[title];
  const words = item.words.map((w) => w.toLowerCase());
  for (let i = 0; i + 1 < words.length; i++) {
    const t = maps[`${words[i]} ${words[i + 1]}`];
    if (t) return t;
  }
  for (const w of words) if (maps[w]) return maps[w];
  for (const w of words) if (w.endsWith('s') && maps[w.slice(0, -1)]) return maps[w.slice(0, -1)];
  return undefined;
}

function halves(r: WeeklyRange, part: 'early' | 'late'): WeeklyRange {
  const s = parseHHMM(r.start)!;
  let e = parseHHMM(r.end)!;
  if (e <= s) e += 1440;
  const mid = s + Math.round((e - s) / 2 / 15) * 15;
  return part === 'early' ? { ...r, end: formatHHMM(mid % 1440) } : { ...r, start: formatHHMM(mid % 1440) };
}

/**
 * The part of the day an item is placed in: a range word ("morning", "tonight"), a written tag
 * (`@deep-work`), the tag the task maps to (`gym` → `@morning`), the evening for a reflection,
 * else waking hours. "after 3pm" / "before noon" narrow it.
 */
export function dayWindow(profile: PlannerProfile, item: Item, windowMinutes?: { after?: number; before?: number }): DayWindow {
  let w: DayWindow | undefined;
  if (item.range) {
    const name = item.range.name;
    const r = name === 'tonight' ? TONIGHT : profileRange(profile, name);
    if (r) {
      const range = item.range.part ? halves(r, item.range.part) : r;
      w = {
        range,
        label: describe(`${item.range.part ? `${item.range.part} ` : ''}${name}`, range),
        named: true,
        ...(name.startsWith('@') ? { tag: name } : {}),
      };
    }
  }
  if (!w && item.tag) {
    const r = profileRange(profile, item.tag.tag);
    if (r) w = { range: r, label: describe(item.tag.tag, r), tag: item.tag.tag, named: true };
  }
  if (!w) {
    const mapped = mappedTagOf(profile, item);
    const r = mapped ? profileRange(profile, mapped) : undefined;
    if (mapped && r) w = { range: r, label: `${describe(mapped, r)}, mapped from "${item.title}"`, tag: mapped, named: true };
  }
  if (!w && item.kind === 'reflect') {
    const r = profileRange(profile, '@evening');
    if (r) w = { range: r, label: describe('@evening', r), tag: '@evening', named: false };
  }
  w ??= { range: WAKING_HOURS, label: describe('waking hours', WAKING_HOURS), named: false };
  if (windowMinutes?.after !== undefined || windowMinutes?.before !== undefined) {
    const start = windowMinutes.after !== undefined ? formatHHMM(windowMinutes.after) : w.range.start;
    const end =
      windowMinutes.before !== undefined
        ? formatHHMM(windowMinutes.before)
        : w.named
          ? w.range.end
          : windowMinutes.after! >= parseHHMM(WAKING_HOURS.end)!
            ? '23:59'
            : w.range.end;
    const range = { ...w.range, start, end };
    w = {
      ...w,
      range,
      label:
        `${w.named ? w.label.replace(/ \(.*$/, '') + ' ' : ''}${windowMinutes.after !== undefined ? `after ${start}` : ''}${windowMinutes.after !== undefined && windowMinutes.before !== undefined ? ' and ' : ''}${windowMinutes.before !== undefined ? `before ${end}` : ''}`.trim(),
      named: true,
    };
  }
  return w;
}

/** Whether a wall time (minutes after midnight) falls in a range (one that may cross midnight). */
export function inRange(minutes: number, r: WeeklyRange): boolean {
  const s = parseHHMM(r.start)!;
  const e = parseHHMM(r.end)!;
  return e > s ? minutes >= s && minutes < e : minutes >= s || minutes < e;
}
