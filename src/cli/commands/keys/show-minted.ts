import type { EndpointResponse } from '../../../contracts/endpoints.js';
import type { CliDeps } from '../../command-runtime.js';

/** Print a freshly minted or rotated key: the secret is shown this once. */
export function showMinted(k: EndpointResponse<'POST /auth/keys'>, deps: CliDeps, verb: string): void {
  deps.io.data(k, () =>
    [
      `${verb} ${k.id} (${k.name})${k.agent_id ? ` for agent ${k.agent_id}` : ''}`,
      `  scopes   ${k.scopes.join(', ')}`,
      `  expires  ${k.expires_at ?? 'never'}`,
      `  key      ${k.key}`,
    ].join('\n'),
  );
  deps.io.hint('Store the key now: it is not shown again.');
}
