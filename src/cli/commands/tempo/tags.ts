import type { CliDeps, RunInput } from '../../command-runtime.js';

export async function run({ opts }: RunInput<{ user?: string }>, deps: CliDeps): Promise<void> {
  const tags = await (await deps.client()).call('GET /tempo/tags', { query: { user_id: opts.user } });
  deps.io.data(tags, () => tags.join('\n'));
}
