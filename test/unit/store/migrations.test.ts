import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { homePaths } from '../../../src/config/paths.js';
import { SCHEMA_VERSION } from '../../../src/store/schema.js';
import { Store } from '../../../src/store/store.js';
import { removeHome, tempHome } from '../../helpers/daemon.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) removeHome(h);
});

const owner = {
  user_id: 'usr_o',
  email: null,
  display_name: 'owner',
  timezone: 'UTC',
  preferences: {},
  password_hash: null,
  is_owner: true,
  created_at: '2030-01-01T00:00:00.000Z',
  updated_at: '2030-01-01T00:00:00.000Z',
};
const key = (id: string) => ({
  id,
  name: id,
  user_id: 'usr_o',
  agent_id: null,
  scopes: ['memory:read', 'admin'],
  prefix: 'k',
  hash: `h-${id}`,
  created_at: '2030-01-01T00:00:00.000Z',
  expires_at: null,
  revoked_at: null,
});

describe('migrating a home written by an older kairos', () => {
  it('carries forward what its journal holds after the last snapshot, not only db.json', async () => {
    const home = tempHome();
    homes.push(home);
    const p = homePaths(home);
    // Schema 1: the owner key was in the snapshot; a second owner key was minted afterwards, so it
    // is only in the journal (the older kairos had not snapshotted yet when it was upgraded).
    writeFileSync(p.db, JSON.stringify({ schema_version: 1, journal_seq: 1, meta: {}, collections: { users: [owner], api_keys: [key('key_old')] } }));
    writeFileSync(`${p.journal}.1`, `${JSON.stringify({ seq: 2, ops: [{ op: 'put', c: 'api_keys', doc: key('key_new') }] })}\n`);

    const store = await Store.open(p);
    try {
      for (const id of ['key_old', 'key_new']) expect(store.get('api_keys', id)?.scopes, id).toEqual(['memory:read', 'profile:read', 'profile:write', 'admin']);
    } finally {
      await store.close();
    }
    const file = JSON.parse(readFileSync(p.db, 'utf8'));
    expect(file.schema_version).toBe(SCHEMA_VERSION);
    expect(file.collections.api_keys.map((k: { scopes: string[] }) => k.scopes.includes('profile:read'))).toEqual([true, true]);

    // Opened again: nothing to migrate, the same keys.
    const again = await Store.open(p);
    expect(again.get('api_keys', 'key_new')?.scopes).toContain('profile:write');
    await again.close();
  });
});
