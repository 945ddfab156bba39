import { type CliDeps, type RunInput, usage } from '../../command-runtime.js';
import { adjust } from './api.js';
import { parseCadence, parseKind } from './parse.js';
import { describeCadence } from './render.js';

export async function run({ args, opts }: RunInput<{ perEvent?: boolean }>, deps: CliDeps): Promise<void> {
  const kind = parseKind(args[0]!);
  const rule = parseCadence(args[1]!);
  if (opts.perEvent && kind !== 'reschedule_event') throw usage('--per-event applies only to reschedule_event.');
  const p = await adjust(deps, { cadence: { [kind]: rule && (opts.perEvent ? { ...rule, per_event: true } : rule) } });
  const mine = p.cadence[kind];
  deps.io.data(p, () => (mine ? `cadence: ${describeCadence({ [kind]: mine })[0]}` : `cadence: no rule for ${kind}`));
}
