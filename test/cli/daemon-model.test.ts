import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SHIPPED_MODEL_DIR } from '../../src/search/models/builtin-model.js';
import { cliHomes } from '../helpers/cli-homes.js';
import { runCli } from '../helpers/daemon.js';
import { eventually, isAlive, type ProcInfo, processesOfHome } from '../helpers/processes.js';

// Issue 15 item 5: the model's preparation (a child process running the sentence encoder for
// minutes) must die with the daemon: on stop, on SIGKILL, on a failed start; stop must not wait
// for it; the next start resumes it; the status shows it. The home's model folder
// (KAIROS_MODEL_DIR) holds only the word vectors, so a start begins the encoder's real pass; each
// test stops it within seconds.

const newHome = cliHomes();
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A home whose model folder lacks the sentence encoder's file. */
function firstStartHome(): { home: string; env: Record<string, string> } {
  const home = newHome();
  const models = mkdtempSync(join(tmpdir(), 'kairos-models-'));
  dirs.push(models);
  const words = readdirSync(SHIPPED_MODEL_DIR).find((f) => /^word-vectors-.*\.bin$/.test(f))!;
  copyFileSync(join(SHIPPED_MODEL_DIR, words), join(models, words));
  return { home, env: { KAIROS_HOME: home, KAIROS_PORT: '0', KAIROS_MODEL_DIR: models } };
}

const converter = (home: string): ProcInfo | undefined => processesOfHome(home).find((p) => p.cmdline.includes('build-sentence-word-vectors-main'));

/**
 * Start a daemon and return its converter as soon as it shows: looked for every 10 ms, so a kill
 * that follows lands in the converter's first moments, while its modules still load (issue 17:
 * a converter killed then outlived the daemon; platform/child-lifeline.ts).
 */
async function startPreparing(env: Record<string, string>): Promise<ProcInfo> {
  const start = await runCli(['daemon', 'start'], { env });
  expect(start.code, start.stderr).toBe(0);
  let found: ProcInfo | undefined;
  expect(await eventually(() => (found = converter(env.KAIROS_HOME!)) !== undefined, 15_000, 10)).toBe(true);
  return found!;
}

describe('the model preparation of a first start', () => {
  it('shows in the status; daemon stop returns at once and leaves no process', async () => {
    const { home, env } = firstStartHome();
    const child = await startPreparing(env);
    const st = await runCli(['--json', 'status'], { env });
    expect(st.code, st.stderr).toBe(0);
    expect(JSON.parse(st.stdout).model).toMatchObject({ state: 'preparing', step: 'sentence encoder word vectors' });
    const readable = await runCli(['status'], { env });
    expect(readable.stdout).toMatch(/model {4}preparing sentence encoder word vectors/);

    const t0 = Date.now();
    const stop = await runCli(['daemon', 'stop'], { env });
    const ms = Date.now() - t0;
    expect(stop.code, stop.stderr).toBe(0);
    // The bound of the issue is 2 s for the daemon; the CLI's own start (~0.5–1.5 s here) comes on top.
    expect(ms).toBeLessThan(4000);
    expect(isAlive(child.pid)).toBe(false);
    expect(processesOfHome(home)).toEqual([]);
  }, 60_000);

  it('a SIGKILLed daemon takes its converter along; the next start prepares again', async () => {
    const { home, env } = firstStartHome();
    const child = await startPreparing(env);
    process.kill(child.ppid, 'SIGKILL');
    // It exits on the IPC disconnect, which it reads between two pieces of its work; the first
    // piece (decoding the word vectors, at nice 10) takes seconds on a loaded machine.
    expect(await eventually(() => !isAlive(child.pid), 20_000)).toBe(true);
    expect(processesOfHome(home)).toEqual([]);

    // The lock the killed converter left names a dead process: the next start takes it over.
    const again = await startPreparing(env);
    expect(again.pid).not.toBe(child.pid);
    expect((await runCli(['daemon', 'stop'], { env })).code).toBe(0);
    expect(processesOfHome(home)).toEqual([]);
  }, 60_000);

  it('a daemon that fails to start (its --port taken) leaves no converter behind', async () => {
    const { home, env } = firstStartHome();
    const server = createServer();
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const r = await runCli(['daemon', 'run', '--port', String((server.address() as AddressInfo).port)], { env });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/is in use by another program/);
      expect(processesOfHome(home)).toEqual([]);
    } finally {
      server.close();
    }
  }, 60_000);
});
