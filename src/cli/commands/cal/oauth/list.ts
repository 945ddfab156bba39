import type { OAuthAccountSummary } from '../../../../contracts/oauth.js';
import type { CliDeps, RunInput } from '../../../command-runtime.js';

/** When the access token runs out, in words a person reads at a glance. */
export function tokenState(a: OAuthAccountSummary, now: Date): string {
  if (!a.access_token_expires_at) return 'valid (no expiry given)';
  const ms = Date.parse(a.access_token_expires_at) - now.getTime();
  if (ms <= 0) return a.has_refresh_token ? 'expired (refreshed on next use)' : 'expired';
  const min = Math.round(ms / 60_000);
  return min < 120 ? `valid for ${min} min` : `valid for ${Math.round(min / 60)} h`;
}

export async function run(_input: RunInput, deps: CliDeps): Promise<void> {
  const list = await (await deps.client()).call('GET /calendar/sync/oauth');
  const accounts = list.providers;
  const now = new Date();
  deps.io.data(list, () =>
    accounts.length
      ? deps.io.table(
          ['NAME', 'ISSUER', 'CLIENT', 'VIA', 'ACCESS TOKEN', 'REFRESH', 'HOSTS'],
          accounts.map((a) => [a.name, a.issuer, a.client_id, a.via, tokenState(a, now), a.has_refresh_token ? 'yes' : 'no', a.allowed_hosts.join(',')]),
        )
      : deps.io.plain
        ? ''
        : 'No OAuth providers. Add one with: kairos cal oauth add <name> --issuer URL --client-id ID',
  );
}
