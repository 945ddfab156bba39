import { describe, expect, it } from 'vitest';
import { appCliEnv, runCliInProcess } from '../helpers/cli-in-process.js';
import { useApp } from '../helpers/in-process.js';
import { hasScript, KEY, Terminal } from '../helpers/terminal.js';

// `kairos chat "note: …"` offers to save the note (issue 19): asked at a terminal, saved with --yes.
const d = useApp();
const notesOf = async (task: string) => (await d.api('GET', `/memory/pull?task_id=${task}`)).json.traces.map((t: any) => t.content);

describe('kairos chat with a note', () => {
  it('--yes saves it and names the saved trace; without a terminal and --yes nothing is saved', async () => {
    const no = await runCliInProcess(['chat', '--task', 'chair', 'note: the new desk chair helps my back'], { env: appCliEnv(d) });
    expect(no.code, no.stderr).toBe(0);
    expect(no.stderr).toBe('kairos: not saved; run it again with --yes to save this note.\n');
    expect(await notesOf('chair')).toEqual([]);
    const yes = await runCliInProcess(['chat', '--task', 'chair', '--yes', 'note: the new desk chair helps my back'], { env: appCliEnv(d) });
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stdout).toMatch(/\n✔ Saved the note: tr_\w+\n$/);
    expect(await notesOf('chair')).toEqual(['The new desk chair helps my back']);
    const json = await runCliInProcess(['--json', 'chat', '--task', 'coffee', '--yes', 'note: slept badly, too much coffee'], { env: appCliEnv(d) });
    expect(JSON.parse(json.stdout)).toMatchObject({ intent: 'note', saved: [{ uid: expect.stringMatching(/^tr_/) }] });
  });

  it.skipIf(!hasScript)('at a terminal it asks, and saves on yes', async () => {
    const t = new Terminal(['chat', '--task', 'walk', 'note: a walk after lunch keeps me awake'], appCliEnv(d));
    try {
      await t.see('Save this note to memory?');
      await t.type(KEY.enter);
      await t.see('Saved the note');
      expect(await t.exited).toBe(0);
    } catch (e) {
      t.kill();
      throw e;
    }
    expect(await notesOf('walk')).toEqual(['A walk after lunch keeps me awake']);
  });
});
