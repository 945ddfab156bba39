import { afterEach, describe, expect, it } from 'vitest';
import { homePaths } from '../../../../src/config/paths.js';
import { shareTraceVersions } from '../../../../src/domain/memory/share-versions.js';
import { stageNewTrace } from '../../../../src/domain/memory/stage-trace.js';
import { nextTurn } from '../../../../src/platform/next-turn.js';
import { Store } from '../../../../src/store/store.js';
import { removeHome, tempHome } from '../../../helpers/daemon.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) removeHome(h);
});

const firstRowValue = (s: Store, uid: string) => (s.byIndex('trace_versions', 'uid', uid)[0]!.patch as { value: unknown }[])[0]!.value;

async function push(s: Store, n: number): Promise<string[]> {
  const uids: string[] = [];
  await s.transact((tx) => {
    for (let i = 0; i < n; i++)
      uids.push(stageNewTrace(tx, { type: 'observation', task_id: 't', content: `note ${i}`, user_id: 'u1', authored_by: 'u1' }, new Date()).uid);
  });
  return uids;
}

describe('a trace and its first history row share one object', () => {
  it('as the row commits, and after a start for what db.json and the journal held', async () => {
    const home = tempHome();
    homes.push(home);
    const s = await Store.open(homePaths(home));
    const unsubscribe = shareTraceVersions(s);
    const [uid] = await push(s, 1);
    expect(firstRowValue(s, uid!)).toBe(s.get('traces', uid!));
    unsubscribe();
    const unshared = await push(s, 200);
    expect(firstRowValue(s, unshared[0]!)).not.toBe(s.get('traces', unshared[0]!));
    expect(firstRowValue(s, unshared[0]!)).toEqual(s.get('traces', unshared[0]!));
    await s.snapshot();
    await push(s, 5); // and some in the journal after db.json
    await s.close();

    const again = await Store.open(homePaths(home));
    const stop = shareTraceVersions(again);
    const shared = () => again.all('traces').every((t) => firstRowValue(again, t.uid) === t);
    for (let turns = 0; turns < 10_000 && !shared(); turns++) await nextTurn();
    expect(again.count('traces')).toBe(206);
    expect(shared()).toBe(true);
    stop();
    await again.close();
  });
});
