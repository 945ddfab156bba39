import { completionScript } from '../../completion.js';
import type { CliDeps, RunInput } from '../../kit.js';

export async function run({ args }: RunInput, deps: CliDeps): Promise<void> {
  // commander has checked the shell against SHELLS; the tree is the one this command runs in (kit.ts `lazy`).
  deps.streams.stdout.write(await completionScript(deps.program!, args[0] as Parameters<typeof completionScript>[1]));
}
