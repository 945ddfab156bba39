import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiClient } from '../../../client/http.js';
import { AppError } from '../../../errors.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';
import { editFailed, parseObject, readEdited, refusalLines, withError } from './edit-loop.js';
import { openEditor } from './editor.js';
import { fetchTrace } from './fetch-trace.js';
import { describeTrace, type Trace } from './format.js';
import { changedFields, parseTraceSets } from './set-updates.js';

interface EditOpts {
  set: string[];
  expectedVersion?: number;
}

const send = (client: ApiClient, uid: string, updates: Record<string, unknown>, expected_version?: number) =>
  client.call('PATCH /memory/edit', { body: { uid, updates, ...(expected_version !== undefined ? { expected_version } : {}) } });

/** A refusal the person can fix in the editor (a bad value), as opposed to one they cannot (a conflict, a missing trace). */
const fixable = (e: unknown): e is AppError => e instanceof AppError && (e.status === 400 || e.status === 422);

export async function run({ args, opts }: RunInput<EditOpts>, deps: CliDeps): Promise<void> {
  const uid = args[0]!;
  const client = await deps.client();
  const show = (t: Trace) => deps.io.data(t, () => `${describeTrace(t, deps.io.chalk)}\n${deps.io.chalk.green(`saved as version ${t.version}`)}`);
  if (opts.set.length) {
    show(await send(client, uid, parseTraceSets(opts.set), opts.expectedVersion));
    return;
  }

  const current = await fetchTrace(client, uid);
  const dir = await mkdtemp(join(tmpdir(), 'kairos-edit-'));
  const file = join(dir, `${uid.replace(/[^\w.-]+/g, '_')}.json`);
  await writeFile(file, JSON.stringify(current, null, 2) + '\n', { mode: 0o600 });
  let keep = true;
  try {
    // The editor loop: invalid JSON or a refused change reopens the editor with the reason on top,
    // until the change is saved, the file is emptied, or it is saved again as it was refused.
    let refused: string | undefined;
    for (;;) {
      openEditor(file, deps);
      const saved = await readEdited(file);
      if (saved.empty) {
        keep = false;
        deps.io.note('kairos: the file was emptied: edit cancelled, the trace was left as it is');
        return;
      }
      const fail = async (why: string[]) => {
        // Saved again unchanged after a refusal: the person gives up (and a script cannot loop forever).
        if (saved.body === refused) throw editFailed(why, file);
        refused = saved.body;
        await withError(file, saved.body, why);
      };
      const parsed = parseObject(saved.body);
      if ('error' in parsed) {
        await fail([parsed.error]);
        continue;
      }
      const updates = changedFields(current, parsed.ok);
      if (!Object.keys(updates).length) {
        keep = false;
        deps.io.note('kairos: no changes; the trace was left as it is');
        return;
      }
      try {
        // The version read before editing: a change made meanwhile is refused (409), not overwritten.
        show(await send(client, uid, updates, opts.expectedVersion ?? current.version));
        keep = false;
        return;
      } catch (e) {
        if (fixable(e)) {
          await fail(refusalLines(e));
          continue;
        }
        if (e instanceof AppError && e.status < 500) throw new AppError(e.status, e.code, `${e.message} Your edit is kept in ${file}.`, { details: e.details });
        throw e;
      }
    }
  } finally {
    if (!keep) await rm(dir, { recursive: true, force: true });
  }
}
