import type { ApiClient } from '../../../client/http.js';

/** The user's time zone, from the profile (the zone natural-language times are read in). */
export async function userZone(client: ApiClient): Promise<string> {
  const p = await client.call('GET /user/profile');
  return p.timezone || 'UTC';
}
