import { confirmOrYes } from '../../input/confirm.js';
import type { CliDeps, RunInput } from '../../kit.js';

export async function run({ args, opts }: RunInput<{ yes?: boolean; occurrence?: string }>, deps: CliDeps): Promise<void> {
  const uid = args[0]!;
  const what = opts.occurrence ? `the ${opts.occurrence} occurrence of ${uid}` : `event ${uid}`;
  if (!(await confirmOrYes(deps, opts.yes, `Remove ${what}?`))) {
    deps.io.note('kairos: nothing removed');
    return;
  }
  const client = await deps.client();
  const res = await client.call('DELETE /calendar/remove', {
    query: { uid, ...(opts.occurrence ? { recurrence_id: new Date(opts.occurrence).toISOString() } : {}) },
  });
  deps.io.data(res, () => `Removed ${what}`);
}
