import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Journal } from '../../../src/store/journal.js';
import { removeHome, tempHome } from '../../helpers/daemon.js';

// Issue 17: ten writes that arrive together share their fdatasync (group commit): the first goes
// out at once, the nine that came while it was on disk go out together in the next batch.
const home = tempHome();
afterAll(() => removeHome(home));

describe('journal group commit', () => {
  it('makes ten concurrent appends durable in at most two write + fdatasync batches, in order', async () => {
    const j = new Journal(join(home, 'db.journal'));
    await j.rollOver();
    const durable: number[] = [];
    const entry = (seq: number) => ({ seq, ops: [{ op: 'put' as const, c: 'traces', doc: { uid: `t${seq}`, content: 'x'.repeat(200) } }] });
    await Promise.all(Array.from({ length: 10 }, (_, i) => j.append(entry(i + 1), { durable: () => durable.push(i + 1), refused: () => {} })));
    expect(durable).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(j.batches).toBeGreaterThanOrEqual(1);
    expect(j.batches).toBeLessThanOrEqual(2);
    await j.append(entry(11), { durable: () => durable.push(11), refused: () => {} });
    expect(j.batches).toBeLessThanOrEqual(3);
    const { entries } = await j.readAll();
    expect(entries.map((e) => e.seq)).toEqual(durable);
    await j.close();
  });
});
