import { beforeAll, describe, expect, it } from 'vitest';
import { appCliEnv } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';
import { hasScript, KEY, Terminal } from '../helpers/terminal.js';

// The review editor reads and writes wall times in the profile's zone, not the terminal's: the
// terminal here runs with TZ=UTC while the person lives in Berlin (UTC+1 in January).

const d = useApp();
beforeAll(async () => {
  await d.api('PATCH', '/user/update', { body: { user_id: d.userId, updates: { timezone: 'Europe/Berlin' } } });
});

describe.skipIf(!hasScript)('kairos review in a zone other than the terminal’s', () => {
  it('shows the profile’s time in the edit menu, and 19:00 typed is 19:00 in Berlin', async () => {
    const r = await d.api('POST', '/agent/plan', {
      body: { task_id: 'zone', actions: [{ kind: 'add_event', title: 'Gym', scheduled_for: '2031-01-05T17:00:00Z', duration_minutes: 30 }] },
    });
    expect(r.status, r.text).toBe(201);
    const t = new Terminal(['review'], { ...appCliEnv(d), TZ: 'UTC' });
    try {
      await t.see('sun 2031-01-05 18:00');
      await t.see('What now?');
      await t.choose(2);
      await t.see('Edit add_event “Gym”');
      await t.see('Time (2031-01-05 18:00)');
      await t.choose(1);
      await t.see('Europe/Berlin');
      await t.type(...Array<string>(20).fill(KEY.backspace), '19:00', KEY.enter);
      await t.see('sun 2031-01-05 19:00');
      await t.see('What now?');
      await t.choose(1);
      await t.see('Approved');
      await t.see('Reviewed: 1 approved');
      expect(await t.exited).toBe(0);
    } catch (e) {
      t.kill();
      throw e;
    }
    const plan = (await d.api('GET', `/agent/plans/${r.json.plan_id}`)).json;
    expect(plan.actions[0].scheduled_for).toBe('2031-01-05T18:00:00.000Z');
  });
});
