import type { CliDeps, RunInput } from '../../command-runtime.js';
import { adjust } from './api.js';
import { isNone } from './limit-arg.js';

export async function run({ args }: RunInput, deps: CliDeps): Promise<void> {
  const [word, tag] = args as [string, string];
  const p = await adjust(deps, { tag_mappings: { [word]: isNone(tag) ? null : tag } });
  const key = word.trim().toLowerCase().replace(/\s+/g, ' ');
  deps.io.data(p, () => (p.tag_mappings[key] ? `${key} → ${p.tag_mappings[key]}` : `${key}: no mapping`));
}
