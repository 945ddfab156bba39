import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { removeHome, runCli } from '../helpers/daemon.js';
import { useApp } from '../helpers/in-process.js';

const d = useApp();
let scripts: string;
beforeAll(async () => {
  scripts = mkdtempSync(join(tmpdir(), 'kairos-editors-'));
});
afterAll(async () => {
  removeHome(scripts);
});

const kairos = (args: string[], input?: string, env: Record<string, string> = {}) => runCliInProcess(args, { env: appCliEnv(d, env), input });
/** The installed bin against the same app: one call per verb end to end, and an editor that calls the API while the CLI waits on it. */
const spawned = (args: string[], input?: string, env: Record<string, string> = {}) => runCli(args, { env: appCliEnv(d, env), input });

/** An $EDITOR that is a script: it gets the file path as its last argument, and reads past kairos's # notes. */
function editorScript(name: string, body: string): string {
  const file = join(scripts, `${name}.mjs`);
  writeFileSync(
    file,
    `import fs from 'node:fs';\nconst file = process.argv.at(-1);\nconst t = JSON.parse(fs.readFileSync(file, 'utf8').replace(/^#.*$/gm, ''));\n${body}\nfs.writeFileSync(file, JSON.stringify(t, null, 2));\n`,
  );
  return `${process.execPath} ${file}`;
}

async function pushOne(extra: Record<string, unknown>): Promise<string> {
  const r = await d.api('POST', '/memory/push', { body: { traces: [{ type: 'observation', task_id: 'cli', content: 'cli note', ...extra }] } });
  expect(r.status, r.text).toBe(201);
  return r.json.saved[0].uid;
}

describe('kairos trace push', () => {
  it('reads NDJSON from stdin, all or nothing', async () => {
    const ndjson = [
      { uid: 'cli-1', type: 'goal', task_id: 'cli-push', content: 'Learn to juggle' },
      { type: 'observation', task_id: 'cli-push', content: 'Dropped the balls twice', tempo_tag: '@evening' },
    ]
      .map((x) => JSON.stringify(x))
      .join('\n');
    const r = await spawned(['trace', 'push', '-'], ndjson + '\n\n');
    expect(r.code, r.stderr).toBe(0);
    // On a pipe: one tab-separated row per saved trace, nothing else (the count is a terminal's hint).
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split('\t')[0]),
    ).toEqual(['cli-1', expect.stringMatching(/^tr_/)]);
  });

  it('reads a JSON array from stdin with --json, output parsed by JSON.parse', async () => {
    const r = await kairos(['--json', 'trace', 'push'], JSON.stringify([{ type: 'reflection', task_id: 'cli-push', content: 'Juggling takes patience' }]));
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.saved).toHaveLength(1);
    expect(out.saved[0].uid).toMatch(/^tr_/);
  });

  it('reads a file', async () => {
    const file = join(scripts, 'traces.json');
    writeFileSync(file, JSON.stringify({ traces: [{ type: 'goal', task_id: 'cli-file', content: 'From a file' }] }));
    const r = await kairos(['--json', 'trace', 'push', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).saved).toHaveLength(1);
  });

  it('a bad trace: exit 6, the index named, nothing saved', async () => {
    const r = await kairos(
      ['trace', 'push', '-'],
      JSON.stringify([
        { type: 'goal', task_id: 'cli-bad', content: 'ok' },
        { type: 'goal', task_id: 'cli-bad' },
      ]),
    );
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('trace 2: content is missing (e.g. "content": "Easy 10 km run")');
    const p = await d.api('GET', '/memory/pull?task_id=cli-bad');
    expect(p.json.traces).toEqual([]);
  });

  it('bad input: exit 2 for a missing file or text that is not JSON', async () => {
    expect((await kairos(['trace', 'push', join(scripts, 'nope.json')])).code).toBe(2);
    const r = await kairos(['trace', 'push', '-'], '{"type": "goal"}\nnot json\n');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('line 2');
  });
});

describe('kairos trace pull, show, search', () => {
  it('pull --json is the API JSON; without it tab-separated rows on a pipe (no header, content whole)', async () => {
    const j = await spawned(['--json', 'trace', 'pull', '--task', 'cli-push']);
    expect(j.code, j.stderr).toBe(0);
    const out = JSON.parse(j.stdout);
    expect(out.traces.map((t: any) => t.content)).toEqual(expect.arrayContaining(['Learn to juggle', 'Dropped the balls twice', 'Juggling takes patience']));
    expect(out.next_cursor).toBeNull();
    const t = await kairos(['trace', 'pull', '--task', 'cli-push', '--tag', '@evening']);
    expect(t.code).toBe(0);
    expect(
      t.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split('\t')),
    ).toEqual([
      [
        expect.stringMatching(/^tr_/),
        'observation',
        'cli-push',
        expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/),
        '@evening',
        '1',
        'Dropped the balls twice',
      ],
    ]);
    expect(t.stdout).not.toContain('Learn to juggle');
  });

  it('pull --all follows the cursor', async () => {
    const r = await kairos(['--json', 'trace', 'pull', '--task', 'cli-push', '--limit', '1', '--all']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).traces).toHaveLength(3);
  });

  it('show prints a trace; --json gives the stored trace', async () => {
    const r = await spawned(['--json', 'trace', 'show', 'cli-1']);
    expect(r.code, r.stderr).toBe(0);
    const pulled = (await d.api('GET', '/memory/pull?task_id=cli-push&type=goal')).json.traces[0];
    expect(JSON.parse(r.stdout)).toEqual(pulled);
    const text = await kairos(['trace', 'show', 'cli-1']);
    expect(text.stdout).toContain('Learn to juggle');
  });

  it('search finds stemmed words', async () => {
    const r = await spawned(['--json', 'trace', 'search', 'juggled', '--mode', 'keyword']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.results.length).toBeGreaterThanOrEqual(2);
    expect(out.results[0].score).toBe(1);
    const hybrid = await kairos(['trace', 'search', 'juggle']);
    expect(hybrid.code, hybrid.stderr).toBe(0);
    expect(hybrid.stdout).not.toMatch(/SCORE/);
    expect(hybrid.stdout.split('\n')[0]!.split('\t')).toHaveLength(6);
  });

  it('an unknown uid: exit 5 for show, history and edit', async () => {
    for (const args of [
      ['trace', 'show', 'no-such-uid'],
      ['trace', 'history', 'no-such-uid'],
      ['trace', 'edit', 'no-such-uid', '--set', 'content=x'],
    ]) {
      const r = await kairos(args);
      expect(r.code, args.join(' ')).toBe(5);
      expect(r.stderr).toContain('No trace no-such-uid');
    }
  });
});

describe('kairos trace edit and history', () => {
  it('--set changes typed fields; history shows the diff', async () => {
    const uid = await pushOne({ task_id: '2031', tempo_tag: '@morning' });
    const r = await kairos([
      '--json',
      'trace',
      'edit',
      uid,
      '--set',
      'importance=5',
      '--set',
      'task_id=2032',
      '--set',
      'tempo_tag=null',
      '--set',
      'linked_trace_ids=cli-1',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ version: 2, importance: 5, task_id: '2032', linked_trace_ids: ['cli-1'] });
    expect(JSON.parse(r.stdout)).not.toHaveProperty('tempo_tag');
    const h = await spawned(['trace', 'history', uid]);
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/v1 .*\n {2}\+ created observation in 2031/);
    expect(h.stdout).toContain('- /tempo_tag: @morning');
    expect(h.stdout).toContain('- /importance: 3');
    expect(h.stdout).toContain('+ /importance: 5');
    const hj = JSON.parse((await kairos(['--json', 'trace', 'history', uid])).stdout);
    expect(hj.versions.map((v: any) => v.version)).toEqual([1, 2]);
  });

  it('a read-only field or a stale --expected-version: exit 6', async () => {
    const uid = await pushOne({});
    const ro = await kairos(['trace', 'edit', uid, '--set', 'version=9']);
    expect(ro.code).toBe(6);
    expect(ro.stderr).toContain('version is not editable');
    const stale = await kairos(['trace', 'edit', uid, '--set', 'content=x', '--expected-version', '3']);
    expect(stale.code).toBe(6);
    expect(stale.stderr).toContain('version 1, not 3');
  });

  it('without --set, opens $EDITOR on the JSON and sends what changed', async () => {
    const uid = await pushOne({ notes: 'to be removed', tempo_tag: '25m' });
    const editor = editorScript('good', `t.content = 'Edited in the editor'; t.importance = 4; delete t.notes;`);
    const r = await kairos(['--json', 'trace', 'edit', uid], undefined, { EDITOR: editor });
    expect(r.code, r.stderr).toBe(0);
    const t = JSON.parse(r.stdout);
    expect(t).toMatchObject({ uid, version: 2, content: 'Edited in the editor', importance: 4, tempo_tag: '25m' });
    expect(t).not.toHaveProperty('notes');
  });

  it('an editor that changes nothing sends nothing', async () => {
    const uid = await pushOne({});
    const r = await kairos(['trace', 'edit', uid], undefined, { EDITOR: editorScript('noop', '') });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('no changes');
    expect((await d.api('GET', `/memory/history?uid=${uid}`)).json.versions).toHaveLength(1);
  });

  it('an edit made meanwhile by someone else is not overwritten: exit 6, the text kept', async () => {
    const uid = await pushOne({});
    // While "the person" edits, another client changes the trace through the API.
    const editor = editorScript(
      'racing',
      `await fetch(process.env.KAIROS_URL + '/memory/edit', { method: 'PATCH', headers: { authorization: 'Bearer ' + process.env.KAIROS_API_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ uid: t.uid, updates: { content: 'the other edit' } }) });
t.content = 'my edit';`,
    );
    const r = await spawned(['trace', 'edit', uid], undefined, { EDITOR: editor });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('changed meanwhile');
    const kept = /kept in (\S+\.json)/.exec(r.stderr)?.[1];
    expect(kept && existsSync(kept)).toBe(true);
    expect(JSON.parse(readFileSync(kept!, 'utf8')).content).toBe('my edit');
    removeHome(join(kept!, '..'));
    const h = (await d.api('GET', `/memory/history?uid=${uid}`)).json;
    expect(h.versions).toHaveLength(2);
    const now = (await d.api('GET', '/memory/pull?task_id=cli')).json.traces.find((x: any) => x.uid === uid);
    expect(now.content).toBe('the other edit');
  });

  it('invalid JSON or a read-only change saved again unchanged after the error: exit 6, nothing changed', async () => {
    const uid = await pushOne({});
    const broken = join(scripts, 'broken.mjs');
    writeFileSync(broken, `import fs from 'node:fs'; fs.writeFileSync(process.argv.at(-1), '{ not json');\n`);
    const r = await kairos(['trace', 'edit', uid], undefined, { EDITOR: `${process.execPath} ${broken}` });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('not valid JSON');
    const ro = await kairos(['trace', 'edit', uid], undefined, { EDITOR: editorScript('ro', `t.created_at = '2000-01-01T00:00:00.000Z';`) });
    expect(ro.code).toBe(6);
    expect(ro.stderr).toContain('created_at is not editable');
    expect((await d.api('GET', `/memory/history?uid=${uid}`)).json.versions).toHaveLength(1);
  });

  it('the editor loop: invalid JSON reopens the editor with the error on top, then the fixed text is saved', async () => {
    const uid = await pushOne({});
    const seen = join(scripts, 'seen-json.txt');
    // First round: broken JSON. Second round: the file starts with the error; fix the text.
    const loop = join(scripts, 'loop-json.mjs');
    writeFileSync(
      loop,
      `import fs from 'node:fs';
const file = process.argv.at(-1);
const text = fs.readFileSync(file, 'utf8');
if (!text.startsWith('#')) fs.writeFileSync(file, text.replace('"content"', 'content'));
else {
  fs.writeFileSync(${JSON.stringify(seen)}, text);
  const body = text.split('\\n').filter((l) => !l.startsWith('#')).join('\\n').replace('content:', '"content":');
  const t = JSON.parse(body);
  t.content = 'fixed on the second try';
  fs.writeFileSync(file, JSON.stringify(t));
}
`,
    );
    const r = await kairos(['--json', 'trace', 'edit', uid], undefined, { EDITOR: `${process.execPath} ${loop}` });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ uid, version: 2, content: 'fixed on the second try' });
    const second = readFileSync(seen, 'utf8');
    expect(second).toMatch(/^# kairos: not saved: the text is not valid JSON \(.+\)\n/);
    expect(second).toMatch(/^# Fix the text below and save to try again, or empty the file/m);
    expect(second).toMatch(/^\{\n {2}"uid"/m);
  });

  it("the editor loop: a refused change reopens with the daemon's reason; emptying the file cancels", async () => {
    const uid = await pushOne({});
    const seen = join(scripts, 'seen-refused.txt');
    const loop = join(scripts, 'loop-refused.mjs');
    writeFileSync(
      loop,
      `import fs from 'node:fs';
const file = process.argv.at(-1);
const text = fs.readFileSync(file, 'utf8');
if (!text.startsWith('#')) {
  const t = JSON.parse(text);
  t.importance = 99;
  fs.writeFileSync(file, JSON.stringify(t, null, 2));
} else {
  fs.writeFileSync(${JSON.stringify(seen)}, text);
  fs.writeFileSync(file, text.split('\\n').filter((l) => l.startsWith('#')).join('\\n'));
}
`,
    );
    const r = await kairos(['trace', 'edit', uid], undefined, { EDITOR: `${process.execPath} ${loop}` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('the file was emptied: edit cancelled');
    expect(readFileSync(seen, 'utf8')).toMatch(/^# kairos: not saved: .+\n# {3}(updates\.)?importance: /);
    expect((await d.api('GET', `/memory/history?uid=${uid}`)).json.versions).toHaveLength(1);
  });

  it('an editor that fails leaves the trace alone', async () => {
    const uid = await pushOne({});
    const r = await kairos(['trace', 'edit', uid], undefined, { EDITOR: 'false' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('nothing was changed');
  });
});
