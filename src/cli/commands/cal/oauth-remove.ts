import { resolveHome } from '../../../config/paths.js';
import { confirmOrYes } from '../../input/confirm.js';
import type { CliDeps, RunInput } from '../../kit.js';

export async function run({ args, opts }: RunInput<{ yes?: boolean }>, deps: CliDeps): Promise<void> {
  const name = args[0]!;
  const { createOAuth, oauthNotFound } = await import('../../../sync/oauth/index.js');
  const oauth = createOAuth({ home: resolveHome(deps.env), env: deps.env });
  if (!(await oauth.has(name))) throw oauthNotFound(name); // before any question
  if (!(await confirmOrYes(deps, opts.yes, `Remove the OAuth provider "${name}" (its tokens and client secret)?`))) {
    deps.io.note('kairos: nothing removed');
    return;
  }
  const r = await oauth.forget(name);
  deps.io.data({ name, ...r }, () =>
    r.revoked
      ? `Removed "${name}": its tokens and client secret are deleted, and the provider revoked the grant.`
      : `Removed "${name}": its tokens and client secret are deleted. The provider could not be asked to revoke the grant; remove kairos's access in your account's settings there.`,
  );
}
