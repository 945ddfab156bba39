import type { CliDeps, RunInput } from '../../../command-runtime.js';
import { countsLine } from './format.js';

export async function run(_input: RunInput, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const res = await client.call('GET /calendar/sync/accounts', {});
  deps.io.data(res, () =>
    res.accounts.length
      ? deps.io.table(
          ['NAME', 'URL', 'SIGN-IN', 'EVENTS', 'LAST SYNC', 'LAST COUNTS', 'LAST ERROR'],
          res.accounts.map((a) => [
            a.name,
            a.url,
            a.auth === 'oauth' ? `oauth:${a.oauth_provider}` : a.username,
            a.events,
            a.last_sync_at ?? 'never',
            a.last_counts ? countsLine(a.last_counts) : '',
            a.last_error ? `${a.last_error.code}: ${a.last_error.message}` : '',
          ]),
        )
      : 'No sync accounts. Add one with: kairos cal sync add <name> --collection … (--user … | --oauth …)',
  );
}
