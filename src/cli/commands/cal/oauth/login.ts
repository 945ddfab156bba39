import type { CliDeps, RunInput } from '../../../command-runtime.js';
import { authorizeWith, type HowOptions } from './authorize.js';

export async function run({ args, opts }: RunInput<HowOptions>, deps: CliDeps): Promise<void> {
  await authorizeWith(deps, opts, (o, oauth) => oauth.login(args[0]!, o));
}
