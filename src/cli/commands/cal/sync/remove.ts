import type { CliDeps, RunInput } from '../../../command-runtime.js';
import { confirmOrYes } from '../../../input/confirm.js';

export async function run({ args, opts }: RunInput<{ yes?: boolean }>, deps: CliDeps): Promise<void> {
  const name = args[0]!;
  if (!(await confirmOrYes(deps, opts.yes, `Remove the sync account "${name}" and its stored password, if any? (Its events stay in kairos.)`))) {
    deps.io.note('kairos: nothing removed');
    return;
  }
  const client = await deps.client();
  const res = await client.call('DELETE /calendar/sync/accounts/{name}', { params: { name } });
  deps.io.data(res, () =>
    [
      `Removed the sync account "${name}"${res.secret_removed ? ' and its password' : ''}; its events stay in kairos.`,
      // The provider may sign in other accounts: removing it is a separate, deliberate step.
      ...(res.oauth_provider
        ? [
            `The OAuth provider "${res.oauth_provider}" and its tokens are kept for other accounts; to delete them too: kairos cal oauth remove ${res.oauth_provider}`,
          ]
        : []),
    ].join('\n'),
  );
}
