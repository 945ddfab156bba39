import { daysBetween, formatLocalDate } from '../../../../time/local-date.js';
import type { CliDeps, RunInput } from '../../../command-runtime.js';
import { gridJson } from './grid-days.js';
import { fetchDays, gridContext, readMonth } from './grid-input.js';
import { monthGrid } from './month-grid.js';

/** `kairos cal month [MONTH]`: the month (default this one) as a grid of weeks, or its days as JSON. */
export async function run({ args, opts }: RunInput<{ weekStart?: string }>, deps: CliDeps): Promise<void> {
  const ctx = await gridContext(deps, opts.weekStart);
  const { year, month } = readMonth(args[0], ctx);
  const first = { year, month, day: 1 };
  const next = month === 12 ? { year: year + 1, month: 1, day: 1 } : { year, month: month + 1, day: 1 };
  const days = await fetchDays(deps, ctx, first, daysBetween(first, next));
  const json = {
    month: formatLocalDate(first).slice(0, 7),
    timezone: ctx.zone,
    week_start: ctx.weekStart,
    today: formatLocalDate(ctx.today),
    days: gridJson(days),
  };
  deps.io.data(json, () => monthGrid(days, ctx, deps.io.chalk));
}
