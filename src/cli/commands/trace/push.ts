import type { CliDeps, RunInput } from '../../kit.js';
import { table } from '../../output/table.js';
import { parseTraces, readInput } from './read-input.js';

export async function run({ args }: RunInput, deps: CliDeps): Promise<void> {
  const { text, name } = await readInput(args[0], deps);
  const traces = parseTraces(text, name);
  const res = await (await deps.client()).request<{ saved: { uid: string; timestamp: string }[] }>('POST', '/memory/push', { body: { traces } });
  deps.io.data(res, () => `${table(['UID', 'TIMESTAMP'], res.saved.map((s) => [s.uid, s.timestamp]))}\n${deps.io.chalk.green(`saved ${res.saved.length} trace${res.saved.length === 1 ? '' : 's'}`)}`);
}
