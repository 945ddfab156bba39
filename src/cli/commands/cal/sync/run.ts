import type { CliDeps, RunInput } from '../../../command-runtime.js';
import { runLines } from './format.js';

export async function run({ args }: RunInput, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const res = await client.call('POST /calendar/sync/run', { query: args[0] ? { name: args[0] } : {} });
  deps.io.data(res, () =>
    res.runs.length
      ? res.runs.flatMap(runLines).join('\n')
      : 'No sync accounts. Add one with: kairos cal sync add <name> --collection … (--user … | --oauth …)',
  );
  if (res.runs.some((r) => r.status === 'failed')) deps.exitCode = 1;
}
