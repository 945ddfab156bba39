import { beforeAll, describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';
import { hasScript, Terminal } from '../helpers/terminal.js';

const d = useApp();
const kairos = (args: string[]) => runCliInProcess(args, { env: appCliEnv(d) });
const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i % 97}`).join(' ');

beforeAll(async () => {
  const traces = [
    {
      uid: 'm-long',
      type: 'observation',
      task_id: 'home',
      content: `${filler(500)} The plumber fixed the leaking boiler. ${filler(500)}`,
      timestamp: '2031-02-01T09:00:00Z',
    },
    // A title from outside that tries to recolour the terminal: shown, never obeyed.
    { uid: 'm-esc', type: 'observation', task_id: 'home', content: 'Boiler \x1b[31mred\x1b[0m note', timestamp: '2031-01-01T09:00:00Z' },
    { uid: 'm-space', type: 'observation', task_id: 'home', content: 'Boiler in the cabin', space: 'cabin', timestamp: '2031-03-01T09:00:00Z' },
  ];
  const r = await d.api('POST', '/memory/push', { body: { traces } });
  expect(r.status, r.text).toBe(201);
});

describe('kairos trace search shows where the query matched', () => {
  it('on a pipe: the snippet of a long trace with the match in brackets, whole', async () => {
    const r = await kairos(['trace', 'search', 'leaking', 'boiler', '--mode', 'keyword']);
    expect(r.code, r.stderr).toBe(0);
    const line = r.stdout.split('\n').find((l) => l.split('\t')[1] === 'm-long')!;
    const match = line.split('\t')[5]!;
    expect(match).toContain('The plumber fixed the [leaking] [boiler].');
    expect(match.startsWith('…')).toBe(true);
    expect(match.endsWith('…')).toBe(true);
    // The daemon's bound on a hit's text, two ellipses and two pairs of brackets.
    expect(match.length).toBeLessThanOrEqual(1000 + 2 + 4);
  });

  it('--space, --since and --until reach the daemon', async () => {
    const uids = async (args: string[]) => {
      const r = await kairos(['--json', 'trace', 'search', 'boiler', '--mode', 'keyword', ...args]);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout).results.map((h: { uid: string }) => h.uid);
    };
    expect(await uids(['--space', 'cabin'])).toEqual(['m-space']);
    expect(await uids(['--since', '2031-01-15T00:00:00Z'])).toEqual(['m-long']);
    expect(await uids(['--until', '2031-01-15T00:00:00Z'])).toEqual(['m-esc']);
  });

  it('--limit above 200 is refused by the daemon, naming limit', async () => {
    const r = await kairos(['trace', 'search', 'boiler', '--limit', '201']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('limit');
  });

  it.skipIf(!hasScript)('on a terminal: matches in inverse video, escape sequences from the trace shown, not obeyed', async () => {
    const t = new Terminal(['trace', 'search', 'boiler', '--mode', 'keyword'], appCliEnv(d, { NO_COLOR: undefined }));
    expect(await t.exited).toBe(0);
    expect(t.raw).toContain('\x1b[7mBoiler\x1b[27m');
    expect(t.raw).not.toContain('\x1b[31m');
    expect(t.raw).toContain('␛[31mred');
  });
});
