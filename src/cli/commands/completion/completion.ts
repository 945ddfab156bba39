import type { CliDeps, RunInput } from '../../command-runtime.js';
import { completionScript } from '../../completion.js';

export async function run({ args }: RunInput, deps: CliDeps): Promise<void> {
  // commander has checked the shell against SHELLS; the tree is the one this command runs in (command-runtime.ts `lazy`).
  deps.streams.stdout.write(await completionScript(deps.program!, args[0] as Parameters<typeof completionScript>[1]));
}
