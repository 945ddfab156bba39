import { resolveHome } from '../../../config/paths.js';
import type { CliDeps, RunInput } from '../../kit.js';

/** Uses the grant as sync would (refreshing when due, or now with --refresh) and reports its state; the token itself is never printed. */
export async function run({ args, opts }: RunInput<{ refresh?: boolean }>, deps: CliDeps): Promise<void> {
  const { createOAuth } = await import('../../../sync/oauth/index.js');
  const oauth = createOAuth({ home: resolveHome(deps.env), env: deps.env });
  const name = args[0]!;
  await oauth.accessToken(name, { forceRefresh: Boolean(opts.refresh) });
  const a = await oauth.get(name);
  deps.io.data(
    { ok: true, ...a },
    () =>
      `"${a.name}" is authorized at ${a.issuer}; the access token ${a.access_token_expires_at ? `is valid until ${a.access_token_expires_at}` : 'has no stated expiry'}${a.refreshed_at ? ` (last refreshed ${a.refreshed_at})` : ''}.`,
  );
}
