import type { CliDeps, RunInput } from '../../command-runtime.js';
import { describeExecution } from '../../output/plans.js';

/** Plan ids start with `pl_`; anything else names a task. */
export async function run({ args, opts }: RunInput<{ simulate?: boolean }>, deps: CliDeps): Promise<void> {
  const target = args[0]!;
  const body = { ...(target.startsWith('pl_') ? { plan_id: target } : { task_id: target }), ...(opts.simulate ? { simulate: true } : {}) };
  const r = await (await deps.client()).call('POST /agent/execute', { body });
  const tz = deps.io.json ? 'UTC' : await deps.userZone();
  deps.io.data(r, () => describeExecution(r, deps.io.chalk, tz));
}
