import type { CliDeps, RunInput } from '../../kit.js';
import { authorizeWith, type HowOptions } from './oauth-authorize.js';

export async function run({ args, opts }: RunInput<HowOptions>, deps: CliDeps): Promise<void> {
  await authorizeWith(deps, opts, (o, oauth) => oauth.login(args[0]!, o));
}
