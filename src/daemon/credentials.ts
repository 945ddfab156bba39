import { type Credentials, readCredentials } from '../config/credentials.js';
import { SCOPES } from '../contracts/scopes.js';
import { writeFileDurable } from '../platform/durable-write.js';
import type { Services } from '../server/services.js';

/**
 * First start creates the owner and an owner key with every scope. If credentials.json was deleted
 * or holds a key that no longer works (revoked, rotated), a new owner key is minted in its place —
 * and the old owner key is revoked: if it was rotated, its new secret is in hands that are not
 * credentials.json's, and a restart must not leave it valid next to the new one.
 */
export async function ensureOwnerCredentials(services: Services, path: string): Promise<Credentials> {
  const owner = await services.users.bootstrapOwner();
  const current = await readCredentials(path);
  const key = current && services.keys.verify(current.api_key);
  if (current && key && key.user_id === owner.user_id) return current;
  if (current?.key_id) await services.keys.retire(current.key_id, owner.user_id);
  const minted = await services.keys.create(null, { name: 'owner', scopes: [...SCOPES], user_id: owner.user_id });
  const creds: Credentials = { api_key: minted.key, user_id: owner.user_id, key_id: minted.id };
  await writeFileDurable(path, JSON.stringify(creds, null, 2) + '\n');
  return creds;
}
