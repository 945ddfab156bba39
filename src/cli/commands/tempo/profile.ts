import type { CliDeps, RunInput } from '../../command-runtime.js';
import { fetchProfile } from './api.js';
import { renderProfile } from './render.js';

export async function run({ opts }: RunInput<{ user?: string }>, deps: CliDeps): Promise<void> {
  const p = await fetchProfile(deps, opts.user);
  deps.io.data(p, () => renderProfile(p, deps.io));
}
