import { SCOPES, type Scope } from '../../../contracts/scopes.js';
import { type CliDeps, type RunInput, usage } from '../../kit.js';
import { showMinted } from './show-minted.js';

export async function run({ args, opts }: RunInput<{ scopes: string; agent?: string; ttl?: number }>, deps: CliDeps): Promise<void> {
  const scopes = opts.scopes
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (bad.length) throw usage(`Unknown scope(s): ${bad.join(', ')}. Known: ${SCOPES.join(', ')}.`);
  const client = await deps.client();
  const k = await client.call('POST /auth/keys', {
    body: { name: args[0], scopes: scopes as Scope[], ...(opts.agent ? { agent_id: opts.agent } : {}), ...(opts.ttl ? { ttl_seconds: opts.ttl } : {}) },
  });
  showMinted(k, deps, 'Created');
}
