import type { CliDeps, RunInput } from '../../command-runtime.js';
import { showProfile } from './show-profile.js';

export async function run(_input: RunInput, deps: CliDeps): Promise<void> {
  showProfile(await (await deps.client()).call('GET /user/profile'), deps);
}
