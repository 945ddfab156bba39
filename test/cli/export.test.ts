import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';

const d = useApp();
const kairos = (args: string[], extra: Record<string, string | undefined> = {}) => runCliInProcess(args, { env: appCliEnv(d, extra) });

beforeAll(async () => {
  const r = await d.api('POST', '/memory/push', {
    body: {
      traces: [
        {
          uid: 'g',
          type: 'goal',
          task_id: 'marathon',
          content: 'The goal is to run a marathon in under four hours',
          importance: 5,
          timestamp: '2031-01-10T08:00:00Z',
          chat_url: 'https://chat.example/1',
        },
        {
          uid: 'o1',
          type: 'observation',
          task_id: 'marathon',
          content: 'Ran 12 km at an easy pace',
          timestamp: '2031-01-11T07:00:00Z',
          linked_trace_ids: ['g'],
        },
        {
          uid: 'o2',
          type: 'observation',
          task_id: 'marathon',
          content: 'Rest day, legs recovering well after the long run',
          timestamp: '2031-01-12T07:00:00Z',
          linked_trace_ids: ['o1'],
        },
        { uid: 't1', type: 'observation', task_id: 'taxes', content: 'Collected the receipts', timestamp: '2031-01-11T12:00:00Z' },
      ],
    },
  });
  expect(r.status, r.text).toBe(201);
});

describe('kairos export', () => {
  it('prints the readable summary on a pipe (tab-separated, no token count on stderr); JSON only with --json', async () => {
    const piped = await kairos(['export', '--task', 'marathon']);
    expect(piped.code, piped.stderr).toBe(0);
    const rows = piped.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map((r) => [r[1], r[2]])).toEqual([
      ['goal', 'marathon'],
      ['observation', 'marathon'],
      ['observation', 'marathon'],
    ]);
    expect(piped.stderr).toBe('');
    const r = await kairos(['export', '--task', 'marathon', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.export_format).toBe('summary');
    expect(body.results.map((x: { uid: string }) => x.uid)).toEqual(['g', 'o2', 'o1']);
    const tokens = body.results.reduce((n: number, x: { summary: string }) => n + encode(x.summary).length, 0);
    expect(body.token_count).toBe(tokens);
    expect(r.stdout).not.toMatch(/chat_url|authored_by|chat\.example/);
  });

  it('--max-tokens caps the summaries', async () => {
    const r = await kairos(['export', '--max-tokens', '12', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.token_count).toBeLessThanOrEqual(12);
    expect(body.results.reduce((n: number, x: { summary: string }) => n + encode(x.summary).length, 0)).toBe(body.token_count);
    expect(body.truncated).toBe(true);
  });

  it('--format linked --group-by trace_type, and -o writes a file', async () => {
    const file = join(d.home, 'linked.json');
    const r = await kairos(['export', '--format', 'linked', '--task', 'marathon', '--type', 'observation', '--group-by', 'trace_type', '-o', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const body = JSON.parse(readFileSync(file, 'utf8'));
    expect(body.groups.map((g: { key: string; results: { uid: string; depth: number }[] }) => [g.key, g.results.map((t) => `${t.uid}@${t.depth}`)])).toEqual([
      ['observation', ['o1@0', 'o2@0']],
      ['goal', ['g@1']],
    ]);
  });

  it('--checkpoint, then a diff from it (the format follows from --since-checkpoint); --list-checkpoints', async () => {
    const save = await kairos(['export', '--format', 'full', '--task', 'marathon', '--checkpoint', 'before-edit', '--json']);
    expect(save.code, save.stderr).toBe(0);
    expect(JSON.parse(save.stdout).checkpoint).toMatchObject({ name: 'before-edit', trace_count: 3 });
    const edit = await d.api('PATCH', '/memory/edit', { body: { uid: 'o1', updates: { content: 'Ran 14 km' } } });
    expect(edit.status).toBe(200);
    const diff = await kairos(['export', '--task', 'marathon', '--since-checkpoint', 'before-edit', '--json']);
    expect(diff.code, diff.stderr).toBe(0);
    const body = JSON.parse(diff.stdout);
    expect(body.export_format).toBe('diff');
    expect(body.results.changed).toMatchObject([{ uid: 'o1', from_version: 1, to_version: 2 }]);
    const again = await kairos(['export', '--checkpoint', 'before-edit']);
    expect(again.code).toBe(6);
    expect(again.stderr).toMatch(/exists already/);
    const list = await kairos(['export', '--list-checkpoints', '--json']);
    expect(JSON.parse(list.stdout).checkpoints.map((c: { name: string }) => c.name)).toEqual(['before-edit']);
  });

  it('--all follows every page into one document', async () => {
    const r = await kairos(['export', '--format', 'full', '--limit', '1', '--all', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.results.map((t: { uid: string }) => t.uid)).toEqual(['g', 'o1', 't1', 'o2']);
    expect(body.next_cursor).toBeNull();
  });

  it('usage mistakes exit 2; validation 6; forbidden 4', async () => {
    expect((await kairos(['export', '--format', 'poetry'])).code).toBe(2);
    const noSince = await kairos(['export', '--format', 'diff']);
    expect(noSince.code).toBe(2);
    expect(noSince.stderr).toMatch(/--since/);
    expect((await kairos(['export', '--all', '--max-tokens', '5'])).code).toBe(2);
    const bad = await kairos(['export', '--tag', 'morning']);
    expect(bad.code).toBe(6);
    expect(bad.stderr).toMatch(/tempo tag/);
    const key = (await d.api('POST', '/auth/keys', { body: { name: 'reader', scopes: ['memory:read'] } })).json.key;
    expect((await kairos(['export'], { KAIROS_API_KEY: key })).code).toBe(4);
  });
});
