import { describe, expect, it } from 'vitest';
import { appCliEnv } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';
import { hasScript, Terminal } from '../helpers/terminal.js';

// Tables at a 120-column terminal (issue 19): no row wraps, columns line up, colour included.
const d = useApp();

async function screenOf(args: string[]): Promise<string[]> {
  const t = new Terminal(args, appCliEnv(d, { COLUMNS: '120', NO_COLOR: undefined, TERM: 'xterm' }));
  try {
    expect(await t.exited).toBe(0);
  } catch (e) {
    t.kill();
    throw e;
  }
  return t.screen.split(/\r?\n/).filter((l) => l.trim());
}

describe.skipIf(!hasScript)('tables at 120 columns', () => {
  it('keys list: the owner key with every scope fits, STATE lines up', async () => {
    const lines = await screenOf(['keys', 'list']);
    const head = lines.findIndex((l) => l.startsWith('ID'));
    const rows = lines.slice(head);
    for (const l of rows) expect([...l].length, l).toBeLessThanOrEqual(120);
    const state = rows[0]!.indexOf('STATE');
    expect(rows.slice(1).every((l) => /^(active|revoked|expired)$/.test(l.slice(state).trim()))).toBe(true);
  });

  it('tempo profile: the week grid lines up with colour on', async () => {
    expect(
      (
        await d.api('POST', '/tempo/adjust', {
          body: { preferences: { time_ranges: { '@deep-work': { start: '09:00', end: '12:00', days: ['mon', 'wed'] } } } },
        })
      ).status,
    ).toBe(200);
    const lines = await screenOf(['tempo', 'profile']);
    const head = lines.find((l) => /\bmon\b.*\btue\b/.test(l))!;
    const row = lines.find((l) => l.trimStart().startsWith('@deep-work'))!;
    expect(row.indexOf('·')).toBe(head.indexOf('tue'));
    const work = lines.find((l) => l.startsWith('@work'))!;
    expect(work.indexOf('·')).toBe(head.indexOf('sat'));
    expect(work.lastIndexOf('·')).toBe(head.indexOf('sun'));
  });
});
