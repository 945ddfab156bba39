import type { EndpointBody } from '../../../contracts/endpoints.js';
import type { TempoProfile } from '../../../contracts/tempo.js';
import type { CliDeps } from '../../command-runtime.js';

/** The caller's tempo profile (or another user's, for an admin). */
export async function fetchProfile(deps: CliDeps, userId?: string): Promise<TempoProfile> {
  return (await deps.client()).call('GET /tempo/profile', { query: { user_id: userId } });
}

/** POST /tempo/adjust with a partial update (the request shape: null removes a key). */
export async function adjust(deps: CliDeps, preferences: EndpointBody<'POST /tempo/adjust'>['preferences']): Promise<TempoProfile> {
  return (await deps.client()).call('POST /tempo/adjust', { body: { preferences } });
}
