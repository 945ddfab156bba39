import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeHome, runCli, startDaemon, tempHome } from '../helpers/daemon.js';
import { isAlive } from '../helpers/processes.js';
import { LONG_PER_PUSH, longText } from './long-text.js';

/**
 * `kairos daemon stop` while work is pending (the search model loading, then the embedding of
 * long traces just pushed): the daemon answers, its process is gone, it wrote no snapshot (the
 * stop waits for the journal's last fdatasync and the lock only), and the next start has every
 * acknowledged write. The store stays under the size up to which a stop used to write a final
 * snapshot. How long the stop takes is the scale bench's row.
 */
const LONG = 100;
const PER_PUSH = LONG_PER_PUSH;

describe('a stop with work pending', () => {
  const home = tempHome();
  afterAll(() => removeHome(home));

  it('answers daemon stop, leaves no process and no snapshot, and the next start has every write', async () => {
    // No timed snapshot while the test runs: db.json changes only if the stop rewrites it.
    writeFileSync(join(home, 'config.json'), JSON.stringify({ snapshot: { every_ms: 3_600_000 } }));
    const d = await startDaemon({ home });
    const pid = d.child.pid!;
    const exited = new Promise<number | null>((ok) => d.child.once('exit', (code) => ok(code)));
    // The first search starts the model: the pushes below queue behind it for embedding.
    expect((await d.api('POST', '/memory/search', { body: { query: 'anything' } })).status).toBe(200);
    const acked: string[] = [];
    for (let i = 0; i < LONG; i += PER_PUSH) {
      const traces = Array.from({ length: PER_PUSH }, (_, j) => ({ uid: `long-${i + j}`, type: 'observation', task_id: 'notes', content: longText(i + j) }));
      const r = await d.api('POST', '/memory/push', { body: { traces } });
      expect(r.status).toBe(201);
      acked.push(...traces.map((t) => t.uid));
    }
    const dbBefore = readFileSync(join(home, 'db.json'), 'utf8');

    const r = await runCli(['daemon', 'stop', '--json'], { env: { KAIROS_HOME: home }, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ stopped: true, pid });
    expect(await exited).toBe(0);
    expect(isAlive(pid)).toBe(false);
    expect(existsSync(join(home, 'daemon.lock'))).toBe(false);
    expect(existsSync(join(home, 'daemon.json'))).toBe(false);
    // The acknowledged writes are in the journal; db.json is as the start left it.
    expect(readFileSync(join(home, 'db.json'), 'utf8')).toBe(dbBefore);
    const last = JSON.parse(readFileSync(join(home, 'daemon.log'), 'utf8').trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(last.msg).toBe('daemon stopped');

    const again = await startDaemon({ home });
    try {
      // Pages end at a byte budget as well as at `limit`: long traces take several.
      const traces: { uid: string; content: string }[] = [];
      for (let cursor: string | null = ''; cursor !== null; ) {
        const pulled = await again.api('GET', `/memory/pull?task_id=notes&limit=1000${cursor ? `&cursor=${cursor}` : ''}`);
        expect(pulled.status).toBe(200);
        traces.push(...pulled.json.traces);
        cursor = pulled.json.next_cursor ?? null;
      }
      expect(traces.map((t) => t.uid).sort()).toEqual([...acked].sort());
      expect(traces.find((t) => t.uid === `long-${LONG - 1}`)!.content).toBe(longText(LONG - 1));
    } finally {
      await again.stop();
    }
  }, 300_000);
});
