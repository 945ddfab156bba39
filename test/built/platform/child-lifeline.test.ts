import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The converters' lifeline, built (dist/): a converter child must exit when its daemon goes,
// also when the daemon went before the child's own code ran (issue 17: the lazy model start
// spawns the converter just after listening; a daemon SIGKILLed in the child's first moments
// left it working for minutes, because Node had already set process.channel to null).
const lifeline = pathToFileURL(join(import.meta.dirname, '..', '..', '..', 'dist', 'platform', 'child-lifeline.js')).href;
const dir = mkdtempSync(join(tmpdir(), 'kairos-lifeline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A child that (like an ES module loading its imports) reaches dieWithParent late, then works for a while. */
const child = join(dir, 'child.mjs');
writeFileSync(
  child,
  `await new Promise((ok) => setTimeout(ok, 400));
const { dieWithParent } = await import(${JSON.stringify(lifeline)});
dieWithParent();
process.stdout.write('working\\n');
setTimeout(() => process.exit(0), Number(process.argv[2]));
`,
);

/**
 * Run the child (working `workMs` once armed); the parent closes the channel after `disconnect`
 * ms, or once the child says it is working.
 */
function run(ipc: boolean, workMs: number, disconnect?: number | 'when working'): Promise<{ code: number | null; out: string }> {
  return new Promise((ok) => {
    const c = spawn(process.execPath, [child, String(workMs)], { stdio: ['ignore', 'pipe', 'inherit', ...(ipc ? ['ipc' as const] : [])] });
    let out = '';
    c.stdout!.on('data', (d) => {
      out += d;
      if (disconnect === 'when working' && c.connected) c.disconnect();
    });
    if (typeof disconnect === 'number') setTimeout(() => c.connected && c.disconnect(), disconnect);
    c.once('exit', (code) => ok({ code, out }));
  });
}

describe('dieWithParent', () => {
  it('exits at once when the channel closed before it was called', async () => {
    const r = await run(true, 10_000, 50);
    expect(r).toEqual({ code: 1, out: '' });
  }, 20_000);

  it('exits when the channel closes while the child works', async () => {
    // Ten seconds of work it does not get to finish.
    const r = await run(true, 10_000, 'when working');
    expect(r).toEqual({ code: 1, out: 'working\n' });
  }, 20_000);

  it('changes nothing for a child run by hand (no channel), nor while the parent stays', async () => {
    expect(await run(false, 300)).toEqual({ code: 0, out: 'working\n' });
    expect(await run(true, 300)).toEqual({ code: 0, out: 'working\n' });
  }, 20_000);
});
