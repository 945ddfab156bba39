import { readSecret } from '../../input/read-secret.js';
import type { CliDeps, RunInput } from '../../kit.js';

export async function run({ args, opts }: RunInput<{ collection: string; user: string; passwordStdin?: boolean }>, deps: CliDeps): Promise<void> {
  const password = await readSecret(deps, opts.passwordStdin, `Password of ${opts.user} at ${opts.collection}:`);
  const client = await deps.client();
  const acct = await client.call('POST /calendar/sync/accounts', { body: { name: args[0]!, url: opts.collection, username: opts.user, password } });
  deps.io.data(
    acct,
    () => `Added "${acct.name}" (${acct.url}); the password is kept in the home folder (mode 0600). Sync now with: kairos cal sync run ${acct.name}`,
  );
}
