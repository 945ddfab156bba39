import type { CliDeps, RunInput } from '../../../command-runtime.js';

export async function run({ opts }: RunInput<{ name: string }>, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const k = await client.call('POST /auth/keys', { body: { name: opts.name, scopes: ['calendar:feed'] } });
  const url = `${client.baseUrl}/calendar/feed.ics?key=${encodeURIComponent(k.key)}`;
  deps.io.data({ url, key_id: k.id, scopes: k.scopes }, () =>
    [url, '', `Add it to your calendar app as a subscription (read-only; key ${k.id}). Revoke with: kairos keys revoke ${k.id}`].join('\n'),
  );
}
