import { completionScript } from '../../completion.js';
import { usage, type CliDeps, type RunInput } from '../../kit.js';
import { createProgram } from '../../program.js';

export async function run({ args }: RunInput, deps: CliDeps): Promise<void> {
  const shell = args[0];
  if (shell !== 'bash' && shell !== 'zsh' && shell !== 'fish') throw usage(`Unknown shell "${shell}": use bash, zsh or fish.`);
  deps.streams.stdout.write(completionScript(createProgram({ streams: deps.streams, env: deps.env }), shell));
}
