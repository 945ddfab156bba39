import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeHome, startDaemon, tempHome } from '../../helpers/daemon.js';

/**
 * Issue 28: a daemon keeps its keyword index in `<home>/search/keyword-index.bin`, so a start
 * reads each trace's terms instead of splitting and stemming every text again (at a million
 * traces every search waited 37 s for that after a start).
 */
const home = tempHome();
afterAll(() => removeHome(home));

const readLines = () =>
  readFileSync(join(home, 'daemon.log'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { msg: string; pid: number } & Record<string, unknown>)
    .filter((l) => l.msg === 'keyword index read');

describe('the daemon’s persisted keyword index', () => {
  it('is written at a stop and read at the next start, which finds the same traces', async () => {
    let d = await startDaemon({ home });
    const traces = Array.from({ length: 40 }, (_, i) => ({
      uid: `kw-${i}`,
      type: 'observation',
      task_id: 'garden',
      content: `Planted ${i % 2 ? 'tulips' : 'quillwort'} by the pond, row ${i}`,
    }));
    expect((await d.api('POST', '/memory/push', { body: { traces } })).status).toBe(201);
    const before = (await d.api('POST', '/memory/search', { body: { query: 'quillwort', mode: 'keyword', limit: 50 } })).json;
    expect(before.results).toHaveLength(20);
    expect(await d.stop('SIGTERM')).toBe(0);
    expect(existsSync(join(home, 'search', 'keyword-index.bin'))).toBe(true);

    d = await startDaemon({ home });
    try {
      const after = (await d.api('POST', '/memory/search', { body: { query: 'quillwort', mode: 'keyword', limit: 50 } })).json;
      expect(after.results.map((r: { uid: string }) => r.uid)).toEqual(before.results.map((r: { uid: string }) => r.uid));
      const read = readLines().filter((l) => l.pid === d.child.pid);
      expect(read).toHaveLength(1);
      expect(read[0]).toMatchObject({ adopted: 40, stale: 0, to_index: 0 });
    } finally {
      await d.stop();
    }
  });
});
