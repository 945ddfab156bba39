import { addDays, formatLocalDate, isoWeekKey, WEEKDAYS, weekdayOf } from '../../../../time/local-date.js';
import type { CliDeps, RunInput } from '../../../command-runtime.js';
import { gridJson } from './grid-days.js';
import { fetchDays, gridContext, readWeekDate } from './grid-input.js';
import { weekGrid } from './week-grid.js';

/** `kairos cal week [DATE]`: the week holding DATE (default today) as a 7-column grid, or its days as JSON. */
export async function run({ args, opts }: RunInput<{ weekStart?: string }>, deps: CliDeps): Promise<void> {
  const ctx = await gridContext(deps, opts.weekStart);
  const date = readWeekDate(args[0], ctx);
  const back = (WEEKDAYS.indexOf(weekdayOf(date)) - (ctx.weekStart === 'sunday' ? 6 : 0) + 7) % 7;
  const first = addDays(date, -back);
  const days = await fetchDays(deps, ctx, first, 7);
  const json = {
    week: isoWeekKey(addDays(first, ctx.weekStart === 'sunday' ? 4 : 3)),
    from: formatLocalDate(first),
    to: formatLocalDate(addDays(first, 6)),
    timezone: ctx.zone,
    week_start: ctx.weekStart,
    today: formatLocalDate(ctx.today),
    days: gridJson(days),
  };
  deps.io.data(json, () => weekGrid(days, ctx, deps.io.chalk));
}
