import { describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';

// Every flag that takes a date reads words in the profile's zone through one helper, and a date it
// cannot read is the same error in every command: exit 2, said of the flag as it was typed.
const d = useApp();
const kairos = (args: string[]) => runCliInProcess(args, { env: appCliEnv(d) });
const DAY = 86_400_000;

async function push(content: string, timestamp: string): Promise<void> {
  const r = await d.api('POST', '/memory/push', { body: { traces: [{ type: 'observation', task_id: 'dates', content, timestamp }] } });
  expect(r.status, r.text).toBe(201);
}

describe('date flags in words', () => {
  it('trace pull, trace search and export take --since/--until/--from/--to in words', async () => {
    await push('old knee note', new Date(Date.now() - 3 * DAY).toISOString());
    await push('new knee note', new Date().toISOString());
    const since = await kairos(['--json', 'trace', 'pull', '--task', 'dates', '--since', 'yesterday']);
    expect(since.code, since.stderr).toBe(0);
    expect(JSON.parse(since.stdout).traces.map((t: { content: string }) => t.content)).toEqual(['new knee note']);
    const until = await kairos(['--json', 'trace', 'pull', '--task', 'dates', '--until', '2 days ago']);
    expect(until.code, until.stderr).toBe(0);
    expect(JSON.parse(until.stdout).traces.map((t: { content: string }) => t.content)).toEqual(['old knee note']);
    const search = await kairos(['--json', 'trace', 'search', 'knee', '--mode', 'keyword', '--since', 'yesterday']);
    expect(search.code, search.stderr).toBe(0);
    expect(JSON.parse(search.stdout).results.map((t: { content?: string; uid: string }) => t.uid)).toHaveLength(1);
    const exp = await kairos(['--json', 'export', '--task', 'dates', '--from', 'yesterday', '--to', 'today']);
    expect(exp.code, exp.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(exp.stdout).results)).toContain('new knee note');
    expect(JSON.stringify(JSON.parse(exp.stdout).results)).not.toContain('old knee note');
  });

  it('a date it cannot read exits 2 in every command, naming the flag as typed', async () => {
    const ev = await d.api('POST', '/calendar/create', { body: { title: 'Dentist', scheduled_for: '2031-02-10T15:00:00Z' } });
    expect(ev.status, ev.text).toBe(201);
    const uid = ev.json.uid as string;
    const cases: [string[], string][] = [
      [['cal', 'add', 'x', '--at', '2031-02-30'], '--at'],
      [['cal', 'add', 'x', '--at', 'tomorrow 25:00'], '--at'],
      [['cal', 'edit', uid, '--at', 'tomorrow 25:00'], '--at'],
      [['cal', 'edit', uid, '--at', 'someday'], '--at'],
      [['cal', 'edit', uid, '--set', 'at=someday'], '--set at'],
      [['cal', 'list', '--from', '2031-13-01'], '--from'],
      [['trace', 'pull', '--since', 'someday'], '--since'],
      [['trace', 'search', 'knee', '--until', 'someday'], '--until'],
      [['export', '--from', '2031-13-01'], '--from'],
      [['export', '--since', 'whenever'], '--since'],
    ];
    for (const [args, flag] of cases) {
      const r = await kairos(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(new RegExp(`^kairos: ${flag}: "`));
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
    }
    const json = await kairos(['--json', 'trace', 'pull', '--since', 'someday']);
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'usage', details: [{ path: '--since' }] });
  });
});
