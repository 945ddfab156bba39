import { beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli, useDaemon } from '../helpers/daemon.js';
import { hasScript, Terminal } from '../helpers/terminal.js';

// Issue 19's rule for pipes (gh's): the same human output on a pipe, JSON only with --json; hints
// and progress on stderr only on a terminal.
const d = useDaemon();
const kairos = (args: string[]) => runCli(args, { env: cliEnv(d, { NO_COLOR: undefined }) });

beforeAll(async () => {
  const push = await d.api('POST', '/memory/push', {
    body: {
      traces: [
        { type: 'goal', task_id: 'pipes', content: 'Run a marathon\twith tabs\nand lines', tempo_tag: '@morning' },
        { type: 'observation', task_id: 'pipes', content: 'Ran 10 km' },
      ],
    },
  });
  expect(push.status, push.text).toBe(201);
  const plan = await d.api('POST', '/agent/plan', {
    body: { task_id: 'pipes', actions: [{ kind: 'add_event', title: 'Long run', scheduled_for: '2031-01-07T07:00:00Z', duration_minutes: 90 }] },
  });
  expect(plan.status, plan.text).toBe(201);
  expect((await d.api('POST', '/calendar/create', { body: { title: 'Race', scheduled_for: '2031-04-06T08:00:00Z', duration_minutes: 240 } })).status).toBe(201);
});

const LISTINGS = [
  ['queue'],
  ['cal', 'list', '--from', '2031-04-01', '--to', '2031-04-30'],
  ['trace', 'pull', '--task', 'pipes'],
  ['trace', 'search', 'marathon', '--mode', 'keyword'],
  ['keys', 'list'],
  ['status'],
  ['export', '--task', 'pipes'],
];

describe('one rule for pipes', () => {
  it.each(LISTINGS.map((a) => [a.join(' '), a]))('%s: readable text on a pipe, JSON with --json, nothing on stderr', async (_name, args) => {
    const piped = await kairos(args as string[]);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout.trim().length).toBeGreaterThan(0);
    expect(() => JSON.parse(piped.stdout)).toThrow();
    expect(piped.stdout).not.toMatch(/\x1b\[/);
    expect(piped.stderr).toBe('');
    const json = await kairos(['--json', ...(args as string[])]);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toBeTypeOf('object');
  });

  it('a tab or line break inside a value does not break a tab-separated row', async () => {
    const r = await kairos(['trace', 'pull', '--task', 'pipes', '--type', 'goal']);
    const rows = r.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.split('\t').at(-1)).toBe('Run a marathon with tabs and lines');
  });
});

describe.skipIf(!hasScript)('on a terminal', () => {
  it('tables have a header; export says its token count on stderr', async () => {
    const t = new Terminal(['trace', 'pull', '--task', 'pipes'], cliEnv(d));
    await t.see(/UID\s+TYPE\s+TASK/);
    expect(await t.exited).toBe(0);
    const e = new Terminal(['export', '--task', 'pipes'], cliEnv(d));
    await e.see(/\d+ tokens \(o200k\)/);
    expect(await e.exited).toBe(0);
  });
});
