import type { CliDeps, RunInput } from '../../../command-runtime.js';
import { confirmOrYes } from '../../../input/confirm.js';

/** The daemon removes the provider: it checks that the grant is the caller's before anything is deleted. */
export async function run({ args, opts }: RunInput<{ yes?: boolean }>, deps: CliDeps): Promise<void> {
  const name = args[0]!;
  const client = await deps.client();
  if (!(await confirmOrYes(deps, opts.yes, `Remove the OAuth provider "${name}" (its tokens and client secret)?`))) {
    deps.io.note('kairos: nothing removed');
    return;
  }
  const r = await client.call('DELETE /calendar/sync/oauth/{name}', { params: { name } });
  deps.io.data(r, () =>
    r.revoked
      ? `Removed "${name}": its tokens and client secret are deleted, and the provider revoked the grant.`
      : `Removed "${name}": its tokens and client secret are deleted. The provider could not be asked to revoke the grant; remove kairos's access in your account's settings there.`,
  );
}
