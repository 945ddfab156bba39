import type { UserProfile } from '../../../contracts/users.js';
import type { CliDeps, RunInput } from '../../kit.js';
import { readSecret } from '../../read-secret.js';

export async function run({ opts }: RunInput<{ email?: string; passwordStdin?: boolean }>, deps: CliDeps): Promise<void> {
  const password = await readSecret(deps, opts.passwordStdin, 'New password:', true);
  const p = await (await deps.client()).request<UserProfile>('POST', '/user/password', { body: { password, ...(opts.email ? { email: opts.email } : {}) } });
  deps.io.data(p, () => `Password set; log in as ${p.email}.`);
}
