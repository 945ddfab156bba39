import type { CliDeps, RunInput } from '../../command-runtime.js';

export async function run({ args, opts }: RunInput<{ reason?: string }>, deps: CliDeps): Promise<void> {
  const r = await (await deps.client()).call('POST /agent/reject', { body: { plan_id: args[0], ...(opts.reason ? { reason: opts.reason } : {}) } });
  deps.io.data(r, () => `Rejected ${r.plan_id}${r.reason ? `: ${r.reason}` : ''}`);
}
