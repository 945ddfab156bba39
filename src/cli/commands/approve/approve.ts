import type { EndpointResponse } from '../../../contracts/endpoints.js';
import { AppError, exitCodeFor } from '../../../errors.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';
import { describeExecution, describePlan } from '../../output/plans.js';

type Approved = EndpointResponse<'POST /agent/approve'>;

/** Each plan is approved on its own: one refused plan does not stop the others. */
export async function run({ args, opts }: RunInput<{ execute?: boolean }>, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const done: Approved[] = [];
  let failed: AppError | undefined;
  for (const planId of args) {
    try {
      const r = await client.call('POST /agent/approve', { body: { plan_id: planId, execute: opts.execute !== false } });
      done.push(r);
      if (!deps.io.json) {
        const c = deps.io.chalk;
        const tz = await deps.userZone();
        deps.io.line(
          r.execution
            ? `${c.green('✔')} Approved and executed ${r.plan_id}`
            : `${c.green('✔')} Approved ${r.plan_id} (execute it with: kairos execute ${r.plan_id})`,
        );
        deps.io.line(r.execution ? describeExecution(r.execution, c, tz) : describePlan(r, c, tz));
      }
    } catch (e) {
      if (!(e instanceof AppError) || args.length === 1) throw e;
      failed ??= e;
      deps.io.error(`kairos: ${planId}: ${e.message}`);
      for (const d of e.details ?? []) deps.io.error(`  ${d.path}: ${d.message}`);
    }
  }
  if (deps.io.json) deps.io.data(args.length === 1 ? done[0] : done);
  if (failed) deps.exitCode = exitCodeFor(failed);
}
