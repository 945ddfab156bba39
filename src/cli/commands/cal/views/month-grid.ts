import type { ChalkInstance } from 'chalk';
import { WEEKDAYS, weekdayOf } from '../../../../time/local-date.js';
import { columns, gridRow, padCell, type StyledCell } from '../../../output/cell-text.js';
import { type DayEntry, type GridDay, sameDate, WEEKDAY_NAMES } from './grid-days.js';
import type { GridContext } from './grid-input.js';

/** Event lines in a day's cell; with more events the last of them says "+N more". */
export const CELL_LINES = 3;

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** An entry as one line of a month cell: times only when the cell is wide enough to keep a title beside them. */
function entryText(e: DayEntry, wide: boolean): string {
  const t = e.event.title;
  if (e.part === 'timed') return wide ? `${e.from} ${t}` : t;
  if (e.part === 'ends') return wide ? `→${e.to} ${t}` : `→ ${t}`;
  if (e.part === 'continues') return `↔ ${t}`;
  return t;
}

/**
 * `kairos cal month` as a grid: 7 columns (the week starting on `ctx.weekStart`) × the 4–6 weeks
 * the month touches, each cell the day number (today in [ ]) and up to CELL_LINES events, all-day
 * and multi-day first, then by time ("+N more" when they do not fit). `days` are the month's.
 */
export function monthGrid(days: GridDay[], ctx: GridContext, c: ChalkInstance): string {
  const w = Math.max(4, Math.floor((ctx.width + 1) / 7) - 1);
  const total = 7 * w + 6;
  const first = days[0]!.date;
  const startIdx = ctx.weekStart === 'sunday' ? 6 : 0;
  const lead = (WEEKDAYS.indexOf(weekdayOf(first)) - startIdx + 7) % 7;
  const weeks = Math.ceil((lead + days.length) / 7);
  const names = Array.from({ length: 7 }, (_, i) => WEEKDAY_NAMES[(startIdx + i) % 7]!);
  const sep = c.dim('│');
  const out: string[] = [];

  const title = `${MONTH_NAMES[first.month - 1]} ${first.year} · ${ctx.zone}`;
  out.push(c.bold(' '.repeat(Math.max(0, Math.floor((total - columns(title)) / 2))) + padCell(title, total).trimEnd()));
  out.push(
    gridRow(
      names.map((n) => ({ text: n, style: c.bold })),
      w,
      sep,
    ),
  );
  const rule = c.dim(names.map(() => '─'.repeat(w)).join('┼'));
  out.push(rule);
  const wide = w >= 16;
  for (let week = 0; week < weeks; week++) {
    const cells = Array.from({ length: 7 }, (_, i) => days[week * 7 + i - lead]);
    const lines = Array.from({ length: CELL_LINES + 1 }, (_, k) =>
      gridRow(
        cells.map((d): StyledCell => {
          if (!d) return { text: '' };
          if (k === 0) {
            const today = sameDate(d.date, ctx.today);
            return today ? { text: `[${d.date.day}]`, style: c.inverse.bold } : { text: `${d.date.day}`, style: c.bold };
          }
          const n = d.entries.length;
          if (n > CELL_LINES && k === CELL_LINES) return { text: `+${n - CELL_LINES + 1} more`, style: c.dim };
          const e = d.entries[k - 1];
          if (!e) return { text: '' };
          return { text: entryText(e, wide), style: e.part === 'timed' ? undefined : c.magenta };
        }),
        w,
        sep,
      ),
    );
    out.push(...lines);
    if (week < weeks - 1) out.push(rule);
  }
  if (!days.some((d) => d.entries.length)) out.push(c.dim('No events this month.'));
  return out.join('\n');
}
