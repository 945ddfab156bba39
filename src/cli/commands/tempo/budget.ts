import { type CliDeps, type RunInput, usage } from '../../command-runtime.js';
import { adjust } from './api.js';
import { describeBudget } from './render.js';

type Limit = number | 'none' | undefined;

export async function run({ opts }: RunInput<{ perDay?: Limit; perWeek?: Limit; agent?: string }>, deps: CliDeps): Promise<void> {
  if (opts.perDay === undefined && opts.perWeek === undefined) throw usage('Give --per-day and/or --per-week (a number, or "none" to remove the limit).');
  const value = (l: Limit) => (l === 'none' ? null : l);
  const limits = {
    ...(opts.perDay !== undefined ? { per_day: value(opts.perDay) } : {}),
    ...(opts.perWeek !== undefined ? { per_week: value(opts.perWeek) } : {}),
  };
  const p = await adjust(deps, { budget: opts.agent ? { per_agent: { [opts.agent]: limits } } : limits });
  const lines = describeBudget(p.budget);
  deps.io.data(p, () => `budget: ${lines.length ? lines.join('; ') : 'no limits'}`);
}
