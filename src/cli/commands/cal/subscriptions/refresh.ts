import type { EndpointResponse } from '../../../../contracts/endpoints.js';
import type { CliDeps, RunInput } from '../../../command-runtime.js';
import { refreshLine } from './format.js';

/** Refresh one subscription, or all of them. */
export async function run({ args }: RunInput, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const ids = args[0] ? [args[0]] : (await client.call('GET /calendar/subscriptions', {})).subscriptions.map((s) => s.id);
  const results: EndpointResponse<'POST /calendar/subscriptions/{id}/refresh'>[] = [];
  for (const id of ids) results.push(await client.call('POST /calendar/subscriptions/{id}/refresh', { params: { id } }));
  deps.io.data(ids.length === 1 && args[0] ? results[0] : { subscriptions: results }, () =>
    results.length ? results.map((r) => `${r.name} (${r.id}): ${refreshLine(r.refresh)}`).join('\n') : 'No subscriptions to refresh.',
  );
  if (results.some((r) => r.refresh.status === 'failed')) deps.exitCode = 1;
}
