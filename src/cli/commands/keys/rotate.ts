import type { MintedKey } from '../../../domain/users/keys-service.js';
import type { CliDeps, RunInput } from '../../kit.js';
import { showMinted } from './show-minted.js';

export async function run({ args }: RunInput, deps: CliDeps): Promise<void> {
  const k = await (await deps.client()).request<MintedKey>('POST', `/auth/keys/${encodeURIComponent(args[0]!)}/rotate`);
  showMinted(k, deps, 'Rotated');
}
