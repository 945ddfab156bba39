import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, ROOT, removeHome, tempHome } from '../helpers/daemon.js';

/**
 * Issue 15 item 3: one daemon per home, with many starters at once. Each round, 8 processes race
 * for the lock of one home — free, held by a dead process, or (left by an old kairos) empty — and
 * exactly one must win. Runs the built lock (dist/) in child processes: real processes, real pids.
 */
const DIST_LOCK = join(ROOT, 'dist', 'daemon', 'lock.js');
const CHILD = join(import.meta.dirname, 'lock-child.mjs');
const ROUNDS = 20;
const STARTERS = 8;

interface Contender {
  child: ChildProcess;
  lines: string[];
  waitLine(n: number): Promise<string>;
}

function contender(): Contender {
  const child = spawn(process.execPath, [CHILD, DIST_LOCK], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let buf = '';
  const waiters: (() => void)[] = [];
  child.stdout!.on('data', (d) => {
    buf += d;
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      lines.push(buf.slice(0, i));
      buf = buf.slice(i + 1);
    }
    for (const w of waiters.splice(0)) w();
  });
  child.once('exit', () => {
    for (const w of waiters.splice(0)) w();
  });
  return {
    child,
    lines,
    async waitLine(n) {
      while (lines.length <= n) {
        if (child.exitCode !== null) throw new Error(`contender exited early: ${lines.join(' | ')}`);
        await new Promise<void>((r) => waiters.push(r));
      }
      return lines[n]!;
    },
  };
}

/** A pid that is not running: a process that has already exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('daemon lock under concurrent starters', () => {
  it(`lets exactly one of ${STARTERS} concurrent starters in, ${ROUNDS} rounds, free, stale and empty locks`, async () => {
    // Long-lived contenders (one process each, so one pid each), told to race again every round.
    const cs = Array.from({ length: STARTERS }, () => contender());
    try {
      await Promise.all(cs.map((c) => c.waitLine(0)));
      const outcomes: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const home = tempHome();
        const lockPath = join(home, 'daemon.lock');
        const kind = ['free', 'stale', 'empty'][round % 3]!;
        if (kind === 'stale') writeFileSync(lockPath, String(deadPid()));
        if (kind === 'empty') writeFileSync(lockPath, '');
        const at = cs[0]!.lines.length;
        for (const c of cs) c.child.stdin!.write(`try ${lockPath} ${home}\n`);
        const results = await Promise.all(cs.map((c) => c.waitLine(at)));
        outcomes.push(`${kind}:${results.filter((r) => r === 'won').length}`);
        expect(
          results.filter((r) => r !== 'won' && r !== 'lost running'),
          results.join(', '),
        ).toEqual([]);
        for (const c of cs) c.child.stdin!.write('release\n');
        await Promise.all(cs.map((c) => c.waitLine(at + 1)));
        // The winner released it; nothing of the race is left behind.
        expect(readdirSync(home)).toEqual([]);
        removeHome(home);
      }
      expect(
        outcomes.filter((o) => !o.endsWith(':1')),
        outcomes.join(' '),
      ).toEqual([]);
    } finally {
      for (const c of cs) c.child.stdin!.end();
    }
  });

  it('lets exactly one of 4 real `kairos daemon run` on one home (stale lock) listen; the others exit and say why', async () => {
    const home = tempHome();
    writeFileSync(join(home, 'daemon.lock'), String(deadPid()));
    const runs = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, [BIN, 'daemon', 'run', '--port', '0'], { env: cleanEnv({ KAIROS_HOME: home }), stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout!.on('data', (d) => (out += d));
      child.stderr!.on('data', (d) => (err += d));
      const outcome = new Promise<'listening' | string>((r) => {
        child.stdout!.on('data', () => /kairos listening on/.test(out) && r('listening'));
        child.once('exit', (code) => r(`exit ${code}: ${err.trim()}`));
      });
      return { child, outcome };
    });
    try {
      const outcomes = await Promise.all(runs.map((r) => r.outcome));
      expect(
        outcomes.filter((o) => o === 'listening'),
        outcomes.join(' | '),
      ).toHaveLength(1);
      for (const o of outcomes.filter((x) => x !== 'listening')) expect(o).toMatch(/^exit [1-9]\d*: .*already running/s);
    } finally {
      for (const r of runs) if (r.child.exitCode === null) r.child.kill('SIGTERM');
      await Promise.all(runs.map((r) => (r.child.exitCode !== null || r.child.signalCode !== null ? null : new Promise((ok) => r.child.once('exit', ok)))));
      removeHome(home);
    }
  });
});
