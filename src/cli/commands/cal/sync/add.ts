import { type CliDeps, type RunInput, usage } from '../../../command-runtime.js';
import { readSecret } from '../../../input/read-secret.js';

interface AddOptions {
  collection: string;
  user?: string;
  passwordStdin?: boolean;
  oauth?: string;
}

/** One way to authenticate: a user and password, or an OAuth provider set up with `kairos cal oauth add`. */
function credentialsOf(opts: AddOptions): 'password' | 'oauth' {
  if (opts.oauth !== undefined && (opts.user !== undefined || opts.passwordStdin))
    throw usage('Give either --oauth <provider> or --user <user> (with its password), not both.');
  if (opts.oauth !== undefined) return 'oauth';
  if (opts.user === undefined) throw usage('Say how to sign in: --user <user> (the password is asked, or read with --password-stdin), or --oauth <provider>.');
  return 'password';
}

export async function run({ args, opts }: RunInput<AddOptions>, deps: CliDeps): Promise<void> {
  const name = args[0]!;
  if (credentialsOf(opts) === 'oauth') {
    const client = await deps.client();
    const acct = await client.call('POST /calendar/sync/accounts', { body: { name, url: opts.collection, oauth: opts.oauth! } });
    deps.io.data(
      acct,
      () =>
        `Added "${acct.name}" (${acct.url}), signed in with the OAuth provider "${acct.oauth_provider}" (its tokens stay in the home folder, refreshed as needed). Sync now with: kairos cal sync run ${acct.name}`,
    );
    return;
  }
  const password = await readSecret(deps, opts.passwordStdin, `Password of ${opts.user} at ${opts.collection}:`);
  const client = await deps.client();
  const acct = await client.call('POST /calendar/sync/accounts', { body: { name, url: opts.collection, username: opts.user!, password } });
  deps.io.data(
    acct,
    () => `Added "${acct.name}" (${acct.url}); the password is kept in the home folder (mode 0600). Sync now with: kairos cal sync run ${acct.name}`,
  );
}
