import { type CliDeps, type RunInput, usage } from '../../command-runtime.js';
import { readSecret } from '../../input/read-secret.js';
import { parseSetPairs } from '../../input/set-pairs.js';
import { showProfile } from './show-profile.js';

export async function run(
  { opts }: RunInput<{ name?: string; email?: string; tz?: string; set: string[]; current?: boolean; passwordStdin?: boolean }>,
  deps: CliDeps,
): Promise<void> {
  const updates: Record<string, unknown> = {};
  if (opts.name !== undefined) updates.display_name = opts.name;
  if (opts.email !== undefined) updates.email = opts.email;
  if (opts.tz !== undefined) updates.timezone = opts.tz;
  if (opts.set.length) updates.preferences = parseSetPairs(opts.set);
  if (!Object.keys(updates).length) throw usage('Nothing to update: give --name, --email, --tz or --set key=value.');
  const current = opts.current ? await readSecret(deps, opts.passwordStdin, 'Current password:') : undefined;
  const body = { updates, ...(current !== undefined ? { current_password: current } : {}) };
  showProfile(await (await deps.client()).call('PATCH /user/update', { body }), deps);
}
