import type { ChalkInstance } from 'chalk';
import { isoWeekOf, type LocalDate } from '../../../../time/local-date.js';
import { gridRow, padCell, type StyledCell, wrapCell } from '../../../output/cell-text.js';
import { named, overlapsAmong } from '../../../output/overlaps.js';
import { type DayEntry, type GridDay, sameDate, WEEKDAY_NAMES } from './grid-days.js';
import type { GridContext } from './grid-input.js';

/** Width of the hour column ("all-day", "09:00"). */
const GUTTER = 7;
/** All-day lines shown per day before "+N more". */
const ALL_DAY_LINES = 3;
/** The hours always drawn (08:00–18:00), widened to the week's earliest start and latest end. */
const FIRST_HOUR = 8;
const LAST_HOUR = 18;

const MONTH_ABBR = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n: number) => String(n).padStart(2, '0');
const weekdayName = (d: LocalDate) => WEEKDAY_NAMES[(new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay() + 6) % 7]!;

/** "Mon 23 – Sun 29 Nov 2026", "Mon 30 Nov – Sun 6 Dec 2026", "Mon 28 Dec 2026 – Sun 3 Jan 2027". */
function rangeLabel(a: LocalDate, b: LocalDate): string {
  const end = `${weekdayName(b)} ${b.day} ${MONTH_ABBR[b.month - 1]} ${b.year}`;
  if (a.year !== b.year) return `${weekdayName(a)} ${a.day} ${MONTH_ABBR[a.month - 1]} ${a.year} – ${end}`;
  if (a.month !== b.month) return `${weekdayName(a)} ${a.day} ${MONTH_ABBR[a.month - 1]} – ${end}`;
  return `${weekdayName(a)} ${a.day} – ${end}`;
}

/** The text of an entry in the all-day band: what runs through the day, or until when. */
function bandText(e: DayEntry): string {
  if (e.part === 'ends') return `→${e.to} ${e.event.title}`;
  if (e.part === 'continues') return `↔ ${e.event.title}`;
  return e.event.title;
}

/**
 * `kairos cal week` as a grid: a column per day (today marked [ ]), all-day and multi-day events in
 * a band on top, timed events placed in the row of the hour they start in and carried down the
 * hours they last (the rest of a long title wraps there, then ┆). Fills `ctx.width` columns.
 */
export function weekGrid(days: GridDay[], ctx: GridContext, c: ChalkInstance): string {
  const w = Math.max(4, Math.floor((ctx.width - GUTTER) / 7) - 1);
  const line = (gutter: string, cells: StyledCell[]) => c.dim(padCell(gutter, GUTTER)) + c.dim('│') + gridRow(cells, w, c.dim('│'));
  const rule = (cross: string) => c.dim('─'.repeat(GUTTER) + days.map(() => cross + '─'.repeat(w)).join(''));
  const out: string[] = [];

  const first = days[0]!.date;
  const last = days.at(-1)!.date;
  // The week number is ISO 8601's (of the week's Thursday when it starts on Sunday).
  const iso = isoWeekOf(days[Math.min(4, days.length - 1)]!.date);
  out.push(c.bold(padCell(`Week ${iso.week} · ${rangeLabel(first, last)} · ${ctx.zone}`, GUTTER + 7 * (w + 1)).trimEnd()));
  out.push(
    line(
      '',
      days.map((d) => {
        const name = `${weekdayName(d.date)} ${d.date.day}${w >= 12 ? ` ${MONTH_ABBR[d.date.month - 1]}` : ''}`;
        const today = sameDate(d.date, ctx.today);
        return { text: today ? `[${name}]` : name, style: today ? c.inverse.bold : c.bold };
      }),
    ),
  );
  out.push(rule('┼'));

  // The all-day band: all-day events, then timed ones running through the day or ending on it.
  const bands = days.map((d) => d.entries.filter((e) => e.part !== 'timed'));
  const bandHeight = Math.min(ALL_DAY_LINES, Math.max(0, ...bands.map((b) => b.length)));
  for (let i = 0; i < bandHeight; i++) {
    const cells = bands.map((b): StyledCell => {
      if (b.length > ALL_DAY_LINES && i === ALL_DAY_LINES - 1) return { text: `+${b.length - i} more`, style: c.dim };
      const e = b[i];
      return e ? { text: bandText(e), style: c.magenta } : { text: '' };
    });
    out.push(line(i === 0 ? 'all-day' : '', cells));
  }
  if (bandHeight) out.push(rule('┼'));

  const timed = days.map((d) => d.entries.filter((e) => e.part === 'timed'));
  const all = timed.flat();
  const lo = Math.min(FIRST_HOUR, ...all.map((e) => Math.floor(e.startMin / 60)));
  const hi = Math.max(LAST_HOUR, ...all.map((e) => Math.ceil(e.endMin / 60)));
  const hours = days.map((_, i) => hourLines(timed[i]!, lo, hi, w, c));
  for (let h = lo; h < hi; h++) {
    const height = Math.max(1, ...hours.map((byHour) => byHour[h - lo]!.length));
    for (let k = 0; k < height; k++)
      out.push(
        line(
          k === 0 ? `${pad2(h)}:00` : '',
          hours.map((byHour) => byHour[h - lo]![k] ?? { text: '' }),
        ),
      );
  }
  if (!days.some((d) => d.entries.length)) out.push(c.dim('No events this week.'));
  out.push(...overlapLines(days, ctx.zone, c));
  return out.join('\n');
}

/** Under the grid, each pair of overlapping events once: "⚠ Tue 7: “Standup” 09:00–10:30 overlaps “Review” 09:30–11:30". */
function overlapLines(days: GridDay[], zone: string, c: ChalkInstance): string[] {
  const out: string[] = [];
  for (const d of days) {
    const timed = d.entries.filter((e) => e.part === 'timed').map((e) => e.event);
    const overlaps = overlapsAmong(timed);
    timed.forEach((a, i) => {
      for (const b of overlaps.get(a) ?? [])
        if (timed.indexOf(b) > i) out.push(c.yellow(`⚠ ${weekdayName(d.date)} ${d.date.day}: ${named(a, zone)} overlaps ${named(b, zone)}`));
    });
  }
  return out;
}

/**
 * The lines of one day's column for each hour from `lo` to `hi`: the events starting in the hour
 * (its minutes shown when the column is narrow and it does not start on the hour), else the next
 * piece of the title of the event still running, else ┆ while it lasts.
 */
function hourLines(entries: DayEntry[], lo: number, hi: number, w: number, c: ChalkInstance): StyledCell[][] {
  const wide = w >= 14;
  const blocks = entries.map((e) => {
    const startHour = Math.floor(e.startMin / 60);
    const endHour = Math.max(startHour, Math.ceil(e.endMin / 60) - 1);
    const minute = e.startMin % 60;
    const prefix = wide ? `${e.from} ` : minute ? `:${pad2(minute)} ` : '';
    const text = wrapCell(prefix + e.event.title, w, endHour - startHour + 1);
    return { startHour, endHour, text };
  });
  const rows: StyledCell[][] = [];
  for (let h = lo; h < hi; h++) {
    const starting = blocks.filter((b) => b.startHour === h);
    if (starting.length) {
      rows.push(starting.map((b) => ({ text: b.text[0] ?? '', style: c.bold })));
      continue;
    }
    const running = blocks.find((b) => b.startHour < h && h <= b.endHour);
    rows.push(running ? [{ text: running.text[h - running.startHour] ?? '┆', style: c.dim }] : []);
  }
  return rows;
}
