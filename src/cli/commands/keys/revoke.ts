import type { CliDeps, RunInput } from '../../command-runtime.js';
import { confirmOrYes } from '../../input/confirm.js';

export async function run({ args, opts }: RunInput<{ yes?: boolean }>, deps: CliDeps): Promise<void> {
  const id = args[0]!;
  if (!(await confirmOrYes(deps, opts.yes, `Revoke ${id}? Clients using it stop working at once.`))) return;
  const r = await (await deps.client()).call('DELETE /auth/keys/{id}', { params: { id } });
  deps.io.data(r, () => `Revoked ${r.revoked} at ${r.revoked_at}`);
}
