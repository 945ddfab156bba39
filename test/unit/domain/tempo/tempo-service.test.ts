import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../../../src/config/paths.js';
import { PreferencesInput } from '../../../../src/contracts/tempo.js';
import { TempoService, tempoProfileParts } from '../../../../src/domain/tempo/tempo-service.js';
import { UsersService } from '../../../../src/domain/users/users-service.js';
import { parseOr422 } from '../../../../src/server/validate.js';
import type { JournalOp } from '../../../../src/store/journal.js';
import { Store } from '../../../../src/store/store.js';
import { removeHome, tempHome } from '../../../helpers/daemon.js';

const clock = { now: () => new Date('2025-03-26T09:00:00Z') };
let home: string;
let store: Store;
let users: UsersService;
let tempo: TempoService;
let owner: string;

beforeAll(async () => {
  home = tempHome();
  store = await Store.open(homePaths(home));
  users = new UsersService(store, clock, tempoProfileParts(store));
  tempo = new TempoService(store, users, clock);
  owner = (await users.bootstrapOwner()).user_id;
});

afterAll(async () => {
  await store.close();
  removeHome(home);
});

describe('TempoService', () => {
  it("collects tags from the user's traces, events and profile, normalized and sorted, ignoring others' and junk", async () => {
    await store.transact((tx) => {
      tx.put('traces', { uid: 't1', user_id: owner, tempo_tag: '@Reading' });
      tx.put('traces', { uid: 't2', user_id: owner, tempo_tag: '2h' });
      tx.put('traces', { uid: 't3', user_id: owner });
      tx.put('traces', { uid: 't4', user_id: 'usr_else', tempo_tag: '@secret' });
      tx.put('events', { uid: 'e1', user_id: owner, tag: '@gym' });
      tx.put('events', { uid: 'e2', user_id: owner, tag: 'not a tag' });
      tx.put('events', { uid: 'e3', user_id: owner, tag: 45 });
    });
    await tempo.adjust(owner, parseOr422(PreferencesInput, { tag_mappings: { taxes: '@admin' }, duration_biases: { '@focus': 1.5, meeting: 2 } }, 'body'));
    expect(tempo.tags(owner)).toEqual([
      '@admin',
      '@afternoon',
      '@evening',
      '@focus',
      '@gym',
      '@morning',
      '@night',
      '@reading',
      '@work',
      '25m',
      '50m',
      '90m',
      '2h',
    ]);
  });

  it('stores a profile only through the store, so commit listeners (the export cache) see it', async () => {
    const seen: JournalOp[] = [];
    const off = store.onCommit((ops) => seen.push(...ops));
    await tempo.adjust(owner, parseOr422(PreferencesInput, { budget: { per_day: 4 } }, 'body'));
    off();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ op: 'put', c: 'tempo_profiles', doc: { user_id: owner, budget: { per_day: 4 }, updated_at: '2025-03-26T09:00:00.000Z' } });
  });

  it('writes nothing for an empty update', async () => {
    const seen: JournalOp[] = [];
    const off = store.onCommit((ops) => seen.push(...ops));
    await tempo.adjust(owner, {});
    off();
    expect(seen).toEqual([]);
  });

  it('gives the user profile its tempo and constraints parts', () => {
    const p = users.profile(owner);
    expect(Object.keys(p.tempo)).toEqual(['time_ranges', 'tag_mappings', 'duration_biases']);
    expect(p.constraints).toMatchObject({ blocked: [], cadence: {}, budget: { per_day: 4 } });
  });
});
