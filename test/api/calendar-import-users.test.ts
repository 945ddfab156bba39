import { beforeAll, describe, expect, it } from 'vitest';
import { useDaemon } from '../helpers/daemon.js';
import { expectError } from '../helpers/expect-error.js';
import { editStoredDb } from '../helpers/stored-home.js';

/**
 * Issue 14, item 5: imported events are keyed by (user, UID). Before the fix a UID held by
 * another user was stored as `uid~user`, a key anyone could import first: Bob's file with
 * `meet-123~<alice's id>` received Alice's later import of `meet-123` (her PIN in his calendar).
 */
const d = useDaemon();
let bob: { userId: string; token: string };

const ics = (...events: { uid: string; title: string; description?: string; day?: number }[]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//t//EN',
    ...events.flatMap((e) => [
      'BEGIN:VEVENT',
      `UID:${e.uid}`,
      'DTSTAMP:20310101T000000Z',
      `DTSTART:203106${String(e.day ?? 1).padStart(2, '0')}T100000Z`,
      'DURATION:PT1H',
      `SUMMARY:${e.title}`,
      ...(e.description ? [`DESCRIPTION:${e.description}`] : []),
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
    '',
  ].join('\r\n');

const importAs = async (key: string, text: string) => {
  const r = await d.api('POST', '/calendar/import', { raw: text, key, headers: { 'content-type': 'text/calendar' } });
  expect(r.status, r.text).toBe(200);
  return r.json;
};
const eventsOf = async (key: string) => {
  const r = await d.api('GET', '/calendar/events?expand=false', { key });
  expect(r.status, r.text).toBe(200);
  return r.json.events as any[];
};

beforeAll(async () => {
  const reg = await d.api('POST', '/user/register', { body: { email: 'bob@example.com', password: 'bobs secret', display_name: 'Bob', timezone: 'UTC' } });
  expect(reg.status, reg.text).toBe(201);
  const login = await d.api('POST', '/user/login', { key: null, body: { email: 'bob@example.com', password: 'bobs secret' } });
  expect(login.status, login.text).toBe(200);
  bob = { userId: reg.json.user_id, token: login.json.token };
});

describe('imported events are keyed by (user, UID)', () => {
  it("a UID crafted as `<uid>~<alice's id>` does not catch Alice's import of <uid>", async () => {
    const alice = d.key;
    // Bob takes the UID itself and the key Alice's copy used to get.
    const trap = await importAs(bob.token, ics({ uid: 'meet-123', title: 'Bob meeting' }, { uid: `meet-123~${d.userId}`, title: 'Bob trap' }));
    expect(trap).toMatchObject({ imported: 2, updated: 0, errors: [] });

    const mine = await importAs(alice, ics({ uid: 'meet-123', title: 'Alice meeting', description: 'dial-in PIN 4321' }));
    expect(mine).toMatchObject({ imported: 1, updated: 0, skipped: 0, errors: [] });

    const bobs = await eventsOf(bob.token);
    expect(bobs.map((e) => [e.title, e.description ?? null, e.version]).sort()).toEqual([
      ['Bob meeting', null, 1],
      ['Bob trap', null, 1],
    ]);
    const alices = (await eventsOf(alice)).filter((e) => e.ical_uid === 'meet-123' || e.uid === 'meet-123');
    expect(alices).toHaveLength(1);
    const hers = alices[0];
    expect(hers).toMatchObject({ user_id: d.userId, title: 'Alice meeting', description: 'dial-in PIN 4321', ical_uid: 'meet-123', source: 'import' });
    expect(hers.uid).not.toBe('meet-123');
    expect(hers.uid).not.toBe(`meet-123~${d.userId}`);

    // Re-importing is idempotent per user; a change updates only the importer's own event.
    expect(await importAs(alice, ics({ uid: 'meet-123', title: 'Alice meeting', description: 'dial-in PIN 4321' }))).toMatchObject({
      imported: 0,
      updated: 0,
      skipped: 1,
    });
    expect(await importAs(alice, ics({ uid: 'meet-123', title: 'Alice meeting', description: 'dial-in PIN 9999' }))).toMatchObject({ imported: 0, updated: 1 });
    expect(await importAs(bob.token, ics({ uid: 'meet-123', title: 'Bob meeting' }, { uid: `meet-123~${d.userId}`, title: 'Bob trap' }))).toMatchObject({
      imported: 0,
      updated: 0,
      skipped: 2,
    });
    expect(await importAs(bob.token, ics({ uid: 'meet-123', title: 'Bob meeting (moved)' }))).toMatchObject({ imported: 0, updated: 1 });
    expect((await eventsOf(alice)).find((e) => e.uid === hers.uid)).toMatchObject({ title: 'Alice meeting', description: 'dial-in PIN 9999', version: 2 });
    expect((await eventsOf(bob.token)).map((e) => e.description ?? null)).toEqual([null, null]);

    // Neither can address the other's event by its key (Alice through a key without admin).
    const aliceCal = await d.api('POST', '/auth/keys', { body: { name: 'calendar app', scopes: ['calendar:read', 'calendar:write'] } });
    expect(aliceCal.status, aliceCal.text).toBe(201);
    expectError(await d.api('PATCH', '/calendar/edit', { key: bob.token, body: { uid: hers.uid, updates: { title: 'pwned' } } }), 403, 'forbidden');
    expectError(await d.api('PATCH', '/calendar/edit', { key: aliceCal.json.key, body: { uid: 'meet-123', updates: { title: 'pwned' } } }), 403, 'forbidden');
    expect(await importAs(aliceCal.json.key, ics({ uid: 'meet-123', title: 'Alice meeting', description: 'dial-in PIN 9999' }))).toMatchObject({
      imported: 0,
      updated: 0,
      skipped: 1,
    });
  });

  it('Bob importing a UID Alice holds gets his own event; hers is untouched', async () => {
    expect(await importAs(d.key, ics({ uid: 'standup@corp', title: 'Alice standup' }))).toMatchObject({ imported: 1 });
    expect(await importAs(bob.token, ics({ uid: 'standup@corp', title: 'Bob standup' }))).toMatchObject({ imported: 1, updated: 0 });
    expect((await eventsOf(d.key)).find((e) => e.uid === 'standup@corp')).toMatchObject({ title: 'Alice standup', version: 1, user_id: d.userId });
    expect((await eventsOf(bob.token)).find((e) => e.ical_uid === 'standup@corp')).toMatchObject({ title: 'Bob standup', user_id: bob.userId });
  });

  it('an event an older kairos stored as `<uid>~<user id>` is still found by the next import', async () => {
    expect(await importAs(bob.token, ics({ uid: 'legacy-1', title: 'Bob legacy', day: 5 }))).toMatchObject({ imported: 1 });
    expect(await importAs(d.key, ics({ uid: 'legacy-1', title: 'Alice legacy', day: 5 }))).toMatchObject({ imported: 1 });
    // Rewrite Alice's copy the way the old importer keyed it.
    await d.stop();
    await editStoredDb(d.home, (db) => {
      const row = db.collections.events.find((e: any) => e.ical_uid === 'legacy-1');
      expect(row.user_id).toBe(d.userId);
      row.uid = `legacy-1~${d.userId}`;
      delete row.ical_uid;
    });
    await d.restart();

    expect(await importAs(d.key, ics({ uid: 'legacy-1', title: 'Alice legacy', day: 5 }))).toMatchObject({ imported: 0, updated: 0, skipped: 1 });
    expect(await importAs(d.key, ics({ uid: 'legacy-1', title: 'Alice legacy (moved)', day: 6 }))).toMatchObject({ imported: 0, updated: 1 });
    const legacy = (await eventsOf(d.key)).filter((e) => e.title.startsWith('Alice legacy'));
    expect(legacy.map((e) => [e.uid, e.title, e.version])).toEqual([[`legacy-1~${d.userId}`, 'Alice legacy (moved)', 2]]);
    expect((await eventsOf(bob.token)).find((e) => e.uid === 'legacy-1')).toMatchObject({ title: 'Bob legacy', version: 1 });
  });
});
