import { completionScript } from '../../completion.js';
import { type CliDeps, type RunInput, usage } from '../../kit.js';

export async function run({ args }: RunInput, deps: CliDeps): Promise<void> {
  const shell = args[0];
  if (shell !== 'bash' && shell !== 'zsh' && shell !== 'fish') throw usage(`Unknown shell "${shell}": use bash, zsh or fish.`);
  // The tree this command runs in (set for every command by kit.ts `lazy`).
  deps.streams.stdout.write(completionScript(deps.program!, shell));
}
