import type { CliDeps, RunInput } from '../../../command-runtime.js';

export async function run(_input: RunInput, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const res = await client.call('GET /calendar/subscriptions', {});
  deps.io.data(res, () => {
    if (!res.subscriptions.length) return 'No subscriptions. Add one with: kairos cal subscribe <url>';
    return deps.io.table(
      ['ID', 'NAME', 'EVENTS', 'EVERY', 'LAST REFRESH', 'LAST ERROR', 'URL'],
      res.subscriptions.map((s) => [
        s.id,
        s.name,
        s.event_count,
        `${s.every_minutes}m`,
        s.last_refresh_at ?? 'never',
        s.last_error ? `${s.last_error.code}: ${s.last_error.message}` : '',
        s.url,
      ]),
    );
  });
}
