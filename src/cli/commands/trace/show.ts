import type { CliDeps, RunInput } from '../../command-runtime.js';
import { fetchTrace } from './fetch-trace.js';
import { describeTrace } from './format.js';

export async function run({ args }: RunInput, deps: CliDeps): Promise<void> {
  const t = await fetchTrace(await deps.client(), args[0]!);
  deps.io.data(t, () => describeTrace(t, deps.io.chalk));
}
