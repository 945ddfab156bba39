import type { EndpointBody } from '../../../contracts/endpoints.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';
import { readInput } from '../../input/read-input.js';
import { parseTraces } from './parse-traces.js';

export async function run({ args }: RunInput, deps: CliDeps): Promise<void> {
  const { text, name } = await readInput(args[0], deps);
  // Sent as read: the daemon validates every trace (422 naming its index, e.g. traces.3.type).
  const traces = parseTraces(text, name) as EndpointBody<'POST /memory/push'>['traces'];
  const res = await (await deps.client()).call('POST /memory/push', { body: { traces } });
  deps.io.data(res, () =>
    deps.io.table(
      ['UID', 'TIMESTAMP'],
      res.saved.map((s) => [s.uid, s.timestamp]),
    ),
  );
  deps.io.hint(deps.io.chalk.green(`saved ${res.saved.length} trace${res.saved.length === 1 ? '' : 's'}`));
}
