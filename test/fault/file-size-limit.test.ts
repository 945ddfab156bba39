import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, removeHome, startDaemon, type TestDaemon, tempHome } from '../helpers/daemon.js';

/**
 * Issue 15 item 1 as it was reported: the daemon under a file-size limit (`ulimit -f`, SIGXFSZ
 * ignored), so the journal's append is cut short and then refused with EFBIG. Every 201 must be
 * on disk, every 507 must be gone; SIGTERM exits cleanly; the next start (without the limit) opens
 * the home with exactly the acknowledged writes.
 */
const LIMIT_KIB = 48;

async function startLimited(home: string): Promise<{ base: string; key: string; stop(): Promise<number | null>; kill(): void }> {
  const child = spawn('bash', ['-c', `trap "" XFSZ; ulimit -f ${LIMIT_KIB}; exec "$0" "$@"`, process.execPath, BIN, 'daemon', 'run', '--port', '0'], {
    env: cleanEnv({ KAIROS_HOME: home }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const port = await new Promise<number>((ok, fail) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /kairos listening on https?:\/\/[^\n]*:(\d+)\n/.exec(out);
      if (m) ok(Number(m[1]));
    });
    child.once('exit', (c) => fail(new Error(`daemon exited with ${c} before listening: ${err}`)));
  });
  const key = JSON.parse(readFileSync(join(home, 'credentials.json'), 'utf8')).api_key as string;
  return {
    base: `http://127.0.0.1:${port}`,
    key,
    stop: () =>
      new Promise((r) => {
        if (child.exitCode !== null) return r(child.exitCode);
        child.once('exit', (c) => r(c));
        child.kill('SIGTERM');
      }),
    kill: () => void child.kill('SIGKILL'),
  };
}

const note = (uid: string) => ({ uid, type: 'observation', task_id: 'efbig', timestamp: '2031-02-03T09:00:00Z', content: `${uid} ${'y'.repeat(1200)}` });

describe('file-size limit (EFBIG) mid-burst', () => {
  const home = tempHome();
  const cleanup: (() => unknown)[] = [];
  afterAll(async () => {
    for (const f of cleanup) await f();
    removeHome(home);
  });

  it('acknowledges only whole records and leaves a home that opens with all of them', async () => {
    const d = await startLimited(home);
    cleanup.push(() => d.kill());
    const push = (uid: string) =>
      fetch(`${d.base}/memory/push`, {
        method: 'POST',
        headers: { authorization: `Bearer ${d.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ traces: [note(uid)] }),
      }).then(async (r) => ({
        uid,
        status: r.status,
        code: ((await r.json()) as { error?: { code: string } }).error?.code,
      }));
    const results: { uid: string; status: number; code?: string }[] = [];
    for (let wave = 0; wave < 12; wave++) results.push(...(await Promise.all(Array.from({ length: 6 }, (_, i) => push(`efbig-${wave}-${i}`)))));
    const acked = results
      .filter((r) => r.status === 201)
      .map((r) => r.uid)
      .sort();
    const refused = results.filter((r) => r.status !== 201);
    expect(acked.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect(r, JSON.stringify(r)).toMatchObject({ status: 507, code: 'storage_full' });

    const pulled = await fetch(`${d.base}/memory/pull?task_id=efbig&limit=1000`, { headers: { authorization: `Bearer ${d.key}` } }).then(
      (r) => r.json() as Promise<{ traces: { uid: string }[] }>,
    );
    expect(pulled.traces.map((t) => t.uid).sort()).toEqual(acked);

    expect(await d.stop()).toBe(0);
    expect(readdirSync(home).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(existsSync(join(home, 'daemon.lock'))).toBe(false);

    let again: TestDaemon | undefined;
    try {
      again = await startDaemon({ home });
      const r = await again.api('GET', '/memory/pull?task_id=efbig&limit=1000');
      expect(r.status, r.text).toBe(200);
      expect((r.json.traces as { uid: string }[]).map((t) => t.uid).sort()).toEqual(acked);
    } finally {
      await again?.stop();
    }
  });
});
