import type { CliDeps, RunInput } from '../../command-runtime.js';
import { showMinted } from './show-minted.js';

export async function run({ args }: RunInput, deps: CliDeps): Promise<void> {
  const k = await (await deps.client()).call('POST /auth/keys/{id}/rotate', { params: { id: args[0]! } });
  showMinted(k, deps, 'Rotated');
}
