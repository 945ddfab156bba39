import type { CliDeps, RunInput } from '../../../command-runtime.js';
import { grantsOfCaller } from './authorize.js';

/** Uses the grant as sync would (refreshing when due, or now with --refresh) and reports its state; the token itself is never printed. */
export async function run({ args, opts }: RunInput<{ refresh?: boolean }>, deps: CliDeps): Promise<void> {
  const { oauth, user } = await grantsOfCaller(deps);
  const { oauthNotFound } = await import('../../../../sync/oauth/index.js');
  const name = args[0]!;
  if ((await oauth.get(name)).owner !== user) throw oauthNotFound(name);
  await oauth.accessToken(name, { forceRefresh: Boolean(opts.refresh) });
  const a = await oauth.get(name);
  deps.io.data(
    { ok: true, ...a },
    () =>
      `"${a.name}" is authorized at ${a.issuer}; the access token ${a.access_token_expires_at ? `is valid until ${a.access_token_expires_at}` : 'has no stated expiry'}${a.refreshed_at ? ` (last refreshed ${a.refreshed_at})` : ''}.`,
  );
}
