import { beforeAll, describe, expect, it } from 'vitest';
import { appCliEnv } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';
import { hasScript, KEY, Terminal } from '../helpers/terminal.js';

// Ctrl-C in `plan` and `review` (issue 19): exit 130, the prompt erased, and a line saying what
// was kept (decisions already sent) and what was dropped (edits never sent).

const d = useApp();
beforeAll(async () => {
  await d.api('PATCH', '/user/update', { body: { updates: { timezone: 'UTC' } } });
});

const add = (title: string, at: string) => ({ kind: 'add_event', title, scheduled_for: at, duration_minutes: 30 });
const ERASE_LINE = '\x1b[2K';

/** The prompt on screen when Ctrl-C came was erased: inquirer's erase sequences follow its last drawing. */
function promptErased(raw: string): boolean {
  const after = raw.slice(raw.lastIndexOf('What now?'));
  return after.split(ERASE_LINE).length - 1 >= 3;
}

describe.skipIf(!hasScript)('Ctrl-C at a prompt', () => {
  it('review: exits 130, says which decisions were kept and which edits were dropped', async () => {
    const ids: string[] = [];
    for (const a of [add('Gym', '2031-02-03T07:00:00Z'), add('Read', '2031-02-03T21:00:00Z')]) {
      const r = await d.api('POST', '/agent/plan', { body: { task_id: 'interrupt-review', actions: [a] } });
      expect(r.status, r.text).toBe(201);
      ids.push(r.json.plan_id);
    }
    const t = new Terminal(['review', '--task', 'interrupt-review'], appCliEnv(d));
    try {
      await t.see('Plan 1 of 2');
      await t.see('What now?');
      await t.choose(1); // approve only
      await t.see(`Approved ${ids[0]}`);
      await t.see('Plan 2 of 2');
      await t.see('What now?');
      await t.choose(2); // edit → title
      await t.see('Edit add_event “Read”');
      await t.choose(0);
      await t.see('New title:');
      await t.type(...Array<string>(10).fill(KEY.backspace), 'Read a novel', KEY.enter);
      await t.see('What now?');
      await t.type(KEY.ctrlC);
      await t.see(`Interrupted (1 approved, 0 rejected, 0 skipped): kept: ${ids[0]} approved; dropped: your unsaved edits to 1 action(s) of ${ids[1]}.`);
      expect(await t.exited).toBe(130);
    } catch (e) {
      t.kill();
      throw e;
    }
    expect(promptErased(t.raw)).toBe(true);
    expect(t.screen).not.toMatch(/Error|at .*\.js/);
    const get = async (id: string) => (await d.api('GET', `/agent/plans/${id}`)).json;
    expect((await get(ids[0]!)).status).toBe('approved');
    const second = await get(ids[1]!);
    expect(second.status).toBe('proposed');
    expect(second.actions[0].title).toBe('Read');
  });

  it('plan: exits 130 and says the plan stays in the queue, unsaved edits dropped', async () => {
    const t = new Terminal(['plan', '--task', 'interrupt-plan', 'Dentist on 2031-02-04 at 3pm'], appCliEnv(d));
    try {
      await t.see('What now?');
      await t.choose(2); // edit → title
      await t.see('Edit ');
      await t.choose(0);
      await t.see('New title:');
      await t.type(' (checkup)', KEY.enter);
      await t.see('What now?');
      await t.type(KEY.ctrlC);
      await t.see(
        /Interrupted: plan pl_\S+ was not approved and stays in the queue \(kairos review, or kairos approve pl_\S+\); your unsaved edits to 1 action\(s\) were dropped\./,
      );
      expect(await t.exited).toBe(130);
    } catch (e) {
      t.kill();
      throw e;
    }
    expect(promptErased(t.raw)).toBe(true);
    const queue = (await d.api('GET', '/agent/queue?task_id=interrupt-plan')).json.plans;
    expect(queue.map((p: any) => [p.status, p.edited])).toEqual([['proposed', false]]);
  });
});
