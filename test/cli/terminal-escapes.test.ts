import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';
import { hasScript, KEY, Terminal } from '../helpers/terminal.js';

/**
 * Text from outside (an imported .ics, a trace's content, a feed server's answer) carries terminal
 * control sequences; the CLI's human output shows them, never passes them on. --json keeps them.
 */
const d = useApp();
const kairos = (args: string[], input?: string) => runCliInProcess(args, { env: appCliEnv(d, { COLUMNS: '200' }), input });

// Window title (OSC), clear screen (CSI), colour (SGR), bell, backspace, CR, DEL, C1 CSI, bidi override.
const OSC = '\x1b]0;pwned\x07';
// An .ics line cannot hold a lone CR: the rest can.
const IN_ICS = `${OSC}\x1b[2J\x1b[31mRed\x08\x08X\x7f\u009b6n\u202etxt.exe`;
const HOSTILE = `${IN_ICS}\rY`;
const TITLE = `Standup ${IN_ICS}`;
const WHERE = `Room ${IN_ICS}`;
const ABOUT = `Agenda ${IN_ICS}`;
// No C0 (but tab and line feed), no DEL, no C1, no bidi override: nothing a terminal obeys.
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

const ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//kairos-test//escapes//EN',
  'BEGIN:VEVENT',
  'UID:hostile-1@test',
  'DTSTAMP:20250101T000000Z',
  'DTSTART:20310602T090000Z',
  'DURATION:PT1H',
  `SUMMARY:${TITLE}`,
  `LOCATION:${WHERE}`,
  `DESCRIPTION:${ABOUT}`,
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

let feedServer: Server;
let feedUrl: string;

beforeAll(async () => {
  const file = join(d.home, 'hostile.ics');
  writeFileSync(file, ICS);
  const r = await kairos(['cal', 'import', file]);
  expect(r.code, r.stderr).toBe(0);
  // A feed server whose reason phrase and body are hostile.
  feedServer = createServer((socket) => {
    socket.once('data', () => socket.end(`HTTP/1.1 503 Busy ${OSC}\x1b[2J\r\ncontent-length: 7\r\nconnection: close\r\n\r\n${OSC}`));
  });
  await new Promise<void>((ok) => feedServer.listen(0, '127.0.0.1', () => ok()));
  const port = (feedServer.address() as { port: number }).port;
  feedUrl = `http://127.0.0.1:${port}/feed.ics`;
});
afterAll(async () => {
  await new Promise((ok) => feedServer?.close(ok));
});

function expectSafe(r: { code: number | null; stdout: string; stderr: string }) {
  expect(r.stdout).not.toMatch(RAW);
  expect(r.stderr).not.toMatch(RAW);
}

describe('human output shows control characters, never sends them', () => {
  it.each([[['cal', 'list', '--from', '2031-06-01', '--to', '2031-06-03']], [['cal', 'week', '2031-06-02']], [['cal', 'month', '2031-06']]])(
    'kairos %j',
    async (args) => {
      const r = await kairos(args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('Standup');
      expectSafe(r);
      // Made visible, one character for one: ESC as ␛.
      expect(r.stdout).toContain('␛');
    },
  );

  it.skipIf(!hasScript)("on a terminal the CLI keeps its own colours and shows the data's codes", async () => {
    const t = new Terminal(['cal', 'week', '2031-06-02'], appCliEnv(d, { NO_COLOR: undefined }));
    expect(await t.exited, t.screen).toBe(0);
    expect(t.raw).toContain('Standup');
    // Ours: colour codes (chalk's). The data's: shown as ␛, none of them sent.
    expect(t.raw).toMatch(/\x1b\[(?:1|2|3\d|9\d)m/);
    expect(t.raw).toContain('Standup ␛]0;p');
    expect(t.raw).not.toContain(OSC);
    expect(t.raw).not.toContain('\x1b[2J');
    expect(t.raw).not.toContain('\x1b[31mRed');
  });

  it('kairos cal list --json keeps the title, location and description exactly', async () => {
    const r = await kairos(['cal', 'list', '--from', '2031-06-01', '--to', '2031-06-03', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const ev = JSON.parse(r.stdout).events.find((e: { title: string }) => e.title.startsWith('Standup'));
    expect(ev).toMatchObject({ title: TITLE, location: WHERE, description: ABOUT });
  });

  it('kairos trace pull / show / history', async () => {
    const push = await kairos(
      ['trace', 'push', '-'],
      JSON.stringify({ uid: 'hostile-trace', type: 'observation', task_id: 'esc', content: `Agenda ${HOSTILE}` }),
    );
    expect(push.code, push.stderr).toBe(0);
    for (const args of [
      ['trace', 'pull', '--task', 'esc'],
      ['trace', 'show', 'hostile-trace'],
      ['trace', 'history', 'hostile-trace'],
    ]) {
      const r = await kairos(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toContain('Agenda');
      expectSafe(r);
    }
    const json = await kairos(['trace', 'show', 'hostile-trace', '--json']);
    expect(JSON.parse(json.stdout).content).toBe(`Agenda ${HOSTILE}`);
  });

  it('kairos cal subscriptions and refresh with a hostile feed server', async () => {
    // The CLI refuses a feed whose first fetch fails; its refusal is made safe like any output.
    const sub = await kairos(['cal', 'subscribe', feedUrl, '--name', `Feed ${HOSTILE}`]);
    expect(sub.code).toBe(6);
    expectSafe(sub);
    // The API keeps such a subscription (with its error): listing and refreshing it stay safe.
    const made = await d.api('POST', '/calendar/subscriptions', { body: { url: feedUrl, name: `Feed ${HOSTILE}` } });
    expect(made.status, made.text).toBe(201);
    const list = await kairos(['cal', 'subscriptions']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('Feed');
    expectSafe(list);
    const refresh = await kairos(['cal', 'refresh']);
    expectSafe(refresh);
    const json = await kairos(['cal', 'subscriptions', '--json']);
    expect(JSON.parse(json.stdout).subscriptions[0].name).toBe(`Feed ${HOSTILE}`);
  });

  it('kairos watch: readable lines show the codes; --json lines keep them exactly', async () => {
    // JSON escapes C0 itself; these it leaves as they are.
    const content = 'Watched \u009b6n \u202etxt\x7f';
    const watchOne = async (extra: string[]) => {
      const w = kairos(['watch', '--topics', 'traces', '--count', '1', ...extra]);
      let done = false;
      void w.finally(() => (done = true));
      // Pushed until the stream, once open, has seen one.
      while (!done) {
        await d.api('POST', '/memory/push', { body: { traces: [{ type: 'observation', task_id: 'watch', content }] } });
        await new Promise((r) => setTimeout(r, 300));
      }
      return w;
    };
    const readable = await watchOne([]);
    expect(readable.code, readable.stderr).toBe(0);
    expect(readable.stdout).toContain('Watched');
    expectSafe(readable);
    const json = await watchOne(['--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).data.content).toBe(content);
  });

  it.skipIf(!hasScript)('kairos review: questions and choices show the codes; a default accepted as shown keeps the title', async () => {
    await d.api('PATCH', '/user/update', { body: { user_id: d.userId, updates: { timezone: 'UTC' } } });
    const add = (title: string, at: string) => ({ kind: 'add_event', title, scheduled_for: at, duration_minutes: 30 });
    const plan = await d.api('POST', '/agent/plan', {
      body: { task_id: 'esc', actions: [add('Plain', '2031-03-03T09:00:00Z'), add(TITLE, '2031-03-03T11:00:00Z')] },
    });
    expect(plan.status, plan.text).toBe(201);
    const t = new Terminal(['review'], appCliEnv(d, { NO_COLOR: undefined }));
    try {
      await t.see('What now?');
      await t.choose(2); // Edit an action
      await t.see('Which action?');
      await t.choose(1);
      await t.see('Edit add_event “Standup ␛]0;pwned');
      await t.choose(0); // Title
      await t.see('New title:');
      await t.type(KEY.enter);
      await t.see('What now?');
      await t.choose(1); // Approve only
      await t.see('Reviewed: 1 approved');
    } finally {
      t.kill();
    }
    expect(t.raw).toContain('Standup ␛]0;pwned');
    expect(t.raw).not.toContain(OSC);
    expect(t.raw).not.toContain('\x1b[2J');
    expect(t.raw).not.toContain('\u009b');
    const after = await d.api('GET', `/agent/plans/${plan.json.plan_id}`);
    expect(after.json.actions[1].title).toBe(TITLE);
  });

  it("an error's message is shown, not obeyed (main's error printing)", async () => {
    const r = await kairos(['trace', 'show', `nope${OSC}`]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('kairos:');
    expectSafe(r);
  });
});
