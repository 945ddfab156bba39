import type { TimeRange } from '../../../contracts/tempo.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';
import { adjust } from './api.js';
import { isNone } from './limit-arg.js';
import { parseDays, parseWallRange } from './parse.js';
import { describeRange } from './render.js';

export async function run({ args, opts }: RunInput<{ days?: string }>, deps: CliDeps): Promise<void> {
  const [tag, range] = args as [string, string];
  const value = isNone(range) ? null : { ...parseWallRange(range), ...(opts.days ? { days: parseDays(opts.days) } : {}) };
  const p = await adjust(deps, { time_ranges: { [tag]: value } });
  const name = tag.trim().toLowerCase();
  deps.io.data(p, () => (p.time_ranges[name] ? `${name}: ${describeRange(p.time_ranges[name] as TimeRange)}` : `${name}: no time range`));
}
