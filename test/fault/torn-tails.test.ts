import { execSync } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { type HomePaths, homePaths } from '../../src/config/paths.js';
import { Store, StoreOpenError } from '../../src/store/store.js';
import { removeHome, tempHome } from '../helpers/daemon.js';

/**
 * Issue 15 item 2: a torn record can end any journal segment, not only the last one — a start (or
 * a snapshot) opens a new segment after a crash or a refused write. The real Store on a temp home,
 * with segments written as the journal writes them.
 */
const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) removeHome(h);
});

const doc = (uid: string) => ({ uid, user_id: 'u1', task_id: 't1', content: uid });
const record = (seq: number, uid: string) => JSON.stringify({ seq, ops: [{ op: 'put', c: 'traces', doc: doc(uid) }] }) + '\n';
const TORN = '{"seq":999,"ops":[{"op":"put","c":"traces","doc":{"uid":"torn","user_id":"u1","con';

/** Three segments of three records each (no snapshot yet: a home that crashed before its first). */
function homeWithSegments(): { p: HomePaths; uids: string[] } {
  const h = tempHome();
  homes.push(h);
  const p = homePaths(h);
  const uids: string[] = [];
  let seq = 0;
  for (const n of [1, 2, 3]) {
    let text = '';
    for (let i = 0; i < 3; i++) {
      const uid = `s${n}-r${i}`;
      uids.push(uid);
      text += record(++seq, uid);
    }
    writeFileSync(`${p.journal}.${n}`, text, { mode: 0o600 });
  }
  return { p, uids };
}

async function open(p: HomePaths) {
  const lines: { msg: string; extra?: Record<string, unknown> }[] = [];
  const store = await Store.open(p, { log: (msg, extra) => lines.push({ msg, extra }), snapshotEveryMs: 3_600_000 });
  return { store, lines };
}

const traceUids = (s: Store) =>
  s
    .all('traces')
    .map((d) => d.uid as string)
    .sort();

describe('journal: torn records', () => {
  it.each([
    ['first', 1],
    ['middle', 2],
    ['last', 3],
  ])('drops a torn record at the end of the %s segment, says so, and keeps every whole record', async (_where, n) => {
    const { p, uids } = homeWithSegments();
    appendFileSync(`${p.journal}.${n}`, TORN);
    const { store, lines } = await open(p);
    expect(traceUids(store)).toEqual([...uids].sort());
    expect(store.get('traces', 'torn')).toBeUndefined();
    const said = lines.find((l) => /torn record/.test(l.msg));
    expect(said, JSON.stringify(lines)).toBeDefined();
    expect(said!.extra).toMatchObject({ segment: `${p.journal}.${n}`, line: 4 });
    // Later writes and the next starts keep working (the torn record is not in the way any more).
    await store.transact((tx) => tx.put('traces', doc('after')));
    await store.close();
    const again = await open(p);
    expect(traceUids(again.store)).toEqual([...uids, 'after'].sort());
    expect(again.lines.filter((l) => /torn record/.test(l.msg))).toEqual([]);
    await again.store.close();
  });

  it('opens a home whose torn record is in a segment that is no longer the last (issue 15 item 2)', async () => {
    // A crash mid-append, then a start that was stopped (SIGKILL) before its first snapshot: the
    // torn segment is followed by the empty segment that start opened.
    const { p, uids } = homeWithSegments();
    appendFileSync(`${p.journal}.3`, TORN);
    writeFileSync(`${p.journal}.4`, '', { mode: 0o600 });
    const { store } = await open(p);
    expect(traceUids(store)).toEqual([...uids].sort());
    await store.close();
  });

  it('refuses damage in the middle of a segment with a command that keeps every intact record', async () => {
    const { p, uids } = homeWithSegments();
    const seg2 = `${p.journal}.2`;
    const lines = readFileSync(seg2, 'utf8').split('\n');
    lines[1] = lines[1]!.slice(0, 30); // the second record of segment 2 is cut, the third follows
    writeFileSync(seg2, lines.join('\n'));
    const before = readdirSync(p.home).sort();
    const err = await Store.open(p).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreOpenError);
    const msg = (err as Error).message;
    expect(msg).toContain(`${seg2} line 2`);
    expect(readdirSync(p.home).sort()).toEqual(before); // nothing changed
    const command = /run:\s+(.+)$/.exec(msg)![1]!;
    execSync(command, { stdio: 'pipe' });
    const { store } = await open(p);
    expect(traceUids(store)).toEqual(uids.filter((u) => u !== 's2-r1').sort());
    await store.close();
    // The original is kept beside it under a name that is never replayed.
    expect(readFileSync(`${seg2}.damaged`, 'utf8')).toBe(lines.join('\n'));
  });
});
