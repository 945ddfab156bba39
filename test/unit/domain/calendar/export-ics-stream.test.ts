import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homePaths } from '../../../../src/config/paths.js';
import { PAGE_BYTES } from '../../../../src/contracts/page.js';
import { byStartThenUid } from '../../../../src/domain/calendar/event-listing.js';
import { exportIcs, type IcsAnswer } from '../../../../src/domain/calendar/export-ics.js';
import { span } from '../../../../src/domain/calendar/occurrences.js';
import { toIcs } from '../../../../src/ical/export.js';
import { Store } from '../../../../src/store/store.js';
import { tempHome } from '../../../helpers/daemon.js';
import { storedEvent } from '../../../helpers/stored-event.js';
import { NOW, putCalendar, QUERIES, USER } from './export-fixture.js';

let home: string;
let store: Store;
beforeAll(async () => {
  home = tempHome();
  store = await Store.open(homePaths(home));
  await putCalendar(store);
});
afterAll(async () => {
  await store.close();
  rmSync(home, { recursive: true, force: true });
});

/** The answer's bytes as a client receives them, and the pieces they came in. */
async function read(a: IcsAnswer): Promise<{ bytes: Buffer; pieces: Buffer[] }> {
  const pieces: Buffer[] = [];
  if (Buffer.isBuffer(a.body)) pieces.push(a.body);
  else for await (const p of a.body) pieces.push(p);
  return { bytes: Buffer.concat(pieces), pieces };
}

// The product line names the version, which the golden files (written by main's export) do not follow.
const sameProduct = (b: Buffer) => b.toString('utf8').replace(/^PRODID:.*$/m, 'PRODID:kairos');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('base64url');

describe('the calendar export', () => {
  it.each(Object.keys(QUERIES))('%s: the same bytes as before it was streamed, and the ETag is their hash', async (name) => {
    const { q, name: calName } = QUERIES[name as keyof typeof QUERIES];
    const { bytes } = await read(await exportIcs(store, USER, 'Europe/Berlin', NOW, q, calName));
    expect(sameProduct(bytes)).toBe(sameProduct(readFileSync(new URL(`./golden/${name}.ics`, import.meta.url))));
    expect((await exportIcs(store, USER, 'Europe/Berlin', NOW, q, calName)).sha256).toBe(sha256(bytes));
  });

  it('a calendar over PAGE_BYTES comes as a stream of one event a piece, made again as it is read', async () => {
    const big = 'ü'.repeat(60_000);
    await store.transact((tx) => {
      for (let i = 0; i < 60; i++)
        tx.put(
          'events',
          storedEvent({ uid: `big-${i}`, user_id: 'usr_big', description: big, scheduled_for: new Date(Date.UTC(2031, 0, 1 + i, 9)).toISOString() }),
        );
    });
    const answer = await exportIcs(store, 'usr_big', 'Europe/Berlin', NOW, {}, 'kairos');
    expect(Buffer.isBuffer(answer.body)).toBe(false);
    const { bytes, pieces } = await read(answer);
    expect(bytes.length).toBeGreaterThan(PAGE_BYTES + 1024 * 1024);
    expect(sha256(bytes)).toBe(answer.sha256);
    // One VEVENT (about 120 kB folded) a piece at most, never the calendar.
    expect(pieces.length).toBeGreaterThanOrEqual(60);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(200_000);
    expect(bytes.toString('utf8').match(/BEGIN:VEVENT/g)).toHaveLength(60);
    // The bytes of the whole-string writer, which the export was before it streamed.
    const events = store.byIndex('events', 'user_id', 'usr_big').slice().sort(byStartThenUid);
    expect(bytes.equals(Buffer.from(toIcs(events, { now: NOW, spanOf: span, name: 'kairos' })))).toBe(true);
  });
});
