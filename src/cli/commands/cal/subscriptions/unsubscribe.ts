import type { CliDeps, RunInput } from '../../../command-runtime.js';
import { confirmOrYes } from '../../../input/confirm.js';

export async function run({ args, opts }: RunInput<{ yes?: boolean }>, deps: CliDeps): Promise<void> {
  const id = args[0]!;
  if (!(await confirmOrYes(deps, opts.yes, `Unsubscribe from ${id} and remove its events?`))) {
    deps.io.note('kairos: nothing removed');
    return;
  }
  const client = await deps.client();
  const res = await client.call('DELETE /calendar/subscriptions/{id}', { params: { id } });
  deps.io.data(res, () => `Unsubscribed from ${id}; ${res.events_removed} event(s) removed.`);
}
