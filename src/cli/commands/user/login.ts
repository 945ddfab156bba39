import type { CliDeps, RunInput } from '../../command-runtime.js';
import { readSecret } from '../../input/read-secret.js';

export async function run({ opts }: RunInput<{ email: string; passwordStdin?: boolean }>, deps: CliDeps): Promise<void> {
  const password = await readSecret(deps, opts.passwordStdin, `Password for ${opts.email}:`);
  const r = await (await deps.client()).call('POST /user/login', { body: { email: opts.email, password } });
  deps.io.data(r, () => r.token);
  deps.io.hint(`Token for ${r.user_id}, valid until ${r.expires_at}. Use it with --api-key or KAIROS_API_KEY.`);
}
