import { text } from 'node:stream/consumers';
import { type CliDeps, type RunInput, usage } from '../../command-runtime.js';
import { readSecret } from '../../input/read-secret.js';

export async function run({ opts }: RunInput<{ email?: string; passwordStdin?: boolean; current?: boolean }>, deps: CliDeps): Promise<void> {
  let current: string | undefined;
  let password: string;
  if (opts.current && opts.passwordStdin) {
    // Two secrets on one stdin: the current password, then the new one.
    const [cur, next] = (await text(deps.streams.stdin)).split(/\r?\n/);
    if (!cur || !next) throw usage('With --current --password-stdin, give the current password on the first line and the new one on the second.');
    [current, password] = [cur, next];
  } else {
    if (opts.current) current = await readSecret(deps, false, 'Current password:');
    password = await readSecret(deps, opts.passwordStdin, 'New password:', true);
  }
  const body = { password, ...(opts.email ? { email: opts.email } : {}), ...(current !== undefined ? { current_password: current } : {}) };
  const p = await (await deps.client()).call('POST /user/password', { body });
  deps.io.data(p, () => `Password set; log in as ${p.email}. Earlier login tokens no longer work.`);
}
