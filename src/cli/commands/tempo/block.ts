import type { EndpointBody } from '../../../contracts/endpoints.js';
import { BlockedInput, blockKey } from '../../../contracts/tempo.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';
import { parseOneOff } from '../../input/when.js';
import { adjust, fetchProfile } from './api.js';
import { isWallRange, parseDays, parseDuration, parseWallRange } from './parse.js';
import { describeBlock } from './render.js';

interface Opts {
  days?: string;
  label?: string;
  for?: string;
}

/** Add one block: weekly (`12:00-13:00 --days mon-fri`) or one-off (`tomorrow 14:00-16:00`). */
export async function run({ args, opts }: RunInput<Opts>, deps: CliDeps): Promise<void> {
  const when = args.join(' ').trim();
  const current = await fetchProfile(deps);
  const label = opts.label ? { label: opts.label } : {};
  let block: NonNullable<EndpointBody<'POST /tempo/adjust'>['preferences']['blocked_add']>[number];
  if (isWallRange(when)) {
    const days = opts.days ? parseDays(opts.days) : undefined;
    block = { ...parseWallRange(when), ...(days ? { days } : {}), ...label };
  } else {
    if (opts.days) deps.io.note('--days applies only to weekly blocks (HH:MM-HH:MM); ignored.');
    const forMinutes = opts.for ? parseDuration(opts.for) : undefined;
    // The CLI's clock is the reference for "tomorrow"; the zone is the user's.
    block = { ...parseOneOff(when, current.timezone, new Date(), forMinutes), ...label };
  }
  // Appended by the daemon in one step: a block added meanwhile by someone else is kept.
  const p = await adjust(deps, { blocked_add: [block] });
  // The daemon normalizes what it stores (zero-padded times, UTC instants); find ours that way.
  const parsed = BlockedInput.safeParse(block);
  const at = parsed.success ? p.blocked.findIndex((b) => blockKey(b) === blockKey(parsed.data)) : -1;
  const n = at >= 0 ? at + 1 : p.blocked.length;
  deps.io.data(p, () => `blocked #${n}: ${describeBlock(p.blocked[n - 1]!, p.timezone)}`);
}
