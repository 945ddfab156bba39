import type { EndpointResponse } from '../../../../contracts/endpoints.js';
import { AppError } from '../../../../errors.js';
import { type CliDeps, type RunInput, usage } from '../../../command-runtime.js';
import { refreshLine } from './format.js';

/** `30m`, `2h`, `1d`, `1h30m` or plain minutes (`90`). */
export function parseEvery(text: string): number {
  const m = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m?)?$/.exec(text.trim());
  if (!text.trim() || !m || m.slice(1).every((x) => x === undefined)) throw usage(`--every takes an interval such as 30m, 2h or 1d, not "${text}".`);
  return Number(m[1] ?? 0) * 1440 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

export async function run({ args, opts }: RunInput<{ name?: string; every?: string }>, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const body = { url: args[0]!, ...(opts.name ? { name: opts.name } : {}), ...(opts.every ? { every_minutes: parseEvery(opts.every) } : {}) };
  const sub: EndpointResponse<'POST /calendar/subscriptions'> = await client.call('POST /calendar/subscriptions', { body });
  // A feed that fails its first fetch has no good copy to keep: the person is not subscribed to it.
  if (sub.refresh.status === 'failed') {
    await client.call('DELETE /calendar/subscriptions/{id}', { params: { id: sub.id } });
    const why = (sub.refresh.error?.message ?? 'the feed could not be read').replace(/;? ?the last good copy is kept\.?$/i, '').replace(/\.$/, '');
    throw new AppError(422, sub.refresh.error?.code ?? 'refresh_failed', `Not subscribed to ${body.url}: ${why}. Check the address and try again.`);
  }
  deps.io.data(sub, () =>
    [`Subscribed to "${sub.name}" (${sub.id}), refreshed every ${sub.every_minutes} min; its events are read-only.`, refreshLine(sub.refresh)].join('\n'),
  );
}
