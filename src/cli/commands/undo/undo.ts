import type { CliDeps, RunInput } from '../../command-runtime.js';
import { confirmOrYes } from '../../input/confirm.js';
import { localStamp } from '../../output/time.js';

/**
 * `kairos undo [change]`: say what undoing the newest change (or the one named) will do, ask, do
 * it. Run again to walk further back; `--list` shows what can be undone.
 */
export async function run({ args, opts }: RunInput<{ list?: boolean; yes?: boolean }>, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const { io } = deps;
  if (opts.list) {
    const res = await client.call('GET /changes', { query: {} });
    const tz = io.json ? 'UTC' : await deps.userZone();
    io.data(res, () =>
      res.changes.length
        ? io.table(
            ['ID', `WHEN (${tz})`, 'KIND', 'WHAT'],
            res.changes.map((c) => [c.id, localStamp(c.at, tz), c.kind, io.clip(c.summary, 90)]),
          )
        : io.chalk.dim('nothing to undo'),
    );
    return;
  }
  const id = args[0];
  const preview = await client.call('POST /changes/undo', { body: { ...(id ? { id } : {}), simulate: true } });
  const c = preview.change;
  const tz = await deps.userZone();
  const question = `Undo ${c.summary} (${localStamp(c.at, tz)} ${tz})?\n  This will ${c.undo}.\n  Go ahead?`;
  if (!(await confirmOrYes(deps, opts.yes, question))) {
    io.note('kairos: nothing undone');
    return;
  }
  const res = await client.call('POST /changes/undo', { body: { id: c.id } });
  io.data(res, () => `Undone: ${c.summary}. (${c.undo}; kairos undo again walks further back.)`);
}
