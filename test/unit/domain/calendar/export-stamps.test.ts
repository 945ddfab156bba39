import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { homePaths } from '../../../../src/config/paths.js';
import { ExportStamps } from '../../../../src/domain/calendar/export-stamps.js';
import { Store } from '../../../../src/store/store.js';
import { tempHome } from '../../../helpers/daemon.js';
import { storedEvent } from '../../../helpers/stored-event.js';

/**
 * Last-Modified of a user's export: whole seconds, moved by a write to their events, and never
 * the same for two different bodies once a response has carried it (a poller holding that date
 * must see the change, even one made in the same second).
 */
let home: string;
let store: Store;
let now = Date.parse('2031-05-05T09:00:00.200Z');
const clock = { now: () => new Date(now) };
beforeEach(async () => {
  home = tempHome();
  store = await Store.open(homePaths(home));
  now = Date.parse('2031-05-05T09:00:00.200Z');
});
afterEach(async () => {
  await store.close();
  rmSync(home, { recursive: true, force: true });
});

const put = (uid: string, user_id = 'u1') => store.transact((tx) => tx.put('events', storedEvent({ uid, user_id })));

describe('ExportStamps', () => {
  it('starts at the start (whole seconds), moves with a write to the user’s events, not with another user’s', async () => {
    const s = new ExportStamps(store, clock);
    expect(s.serve('u1').toISOString()).toBe('2031-05-05T09:00:00.000Z');
    now += 5_000;
    await put('e1', 'u2');
    expect(s.serve('u1').toISOString()).toBe('2031-05-05T09:00:00.000Z');
    await put('e2');
    expect(s.serve('u1').toISOString()).toBe('2031-05-05T09:00:05.000Z');
  });

  it('a change in the second a served stamp names moves it one second on; unserved changes do not pile up', async () => {
    const s = new ExportStamps(store, clock);
    now += 3_000;
    await put('e1');
    await put('e2');
    await put('e3');
    const served = s.serve('u1').getTime();
    expect(new Date(served).toISOString()).toBe('2031-05-05T09:00:03.000Z');
    now += 300; // the same second
    await put('e4');
    expect(s.serve('u1').getTime()).toBe(served + 1000);
  });

  it('a delete (whose owner it does not carry) moves every user’s stamp', async () => {
    const s = new ExportStamps(store, clock);
    await put('e1', 'u1');
    const before = s.serve('u2').getTime();
    now += 2_000;
    await store.transact((tx) => tx.delete('events', 'e1'));
    expect(s.serve('u2').getTime()).toBeGreaterThan(before);
  });
});
