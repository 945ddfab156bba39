import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiClient } from '../../../client/http.js';
import { AppError } from '../../../errors.js';
import type { CliDeps, RunInput } from '../../kit.js';
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
    openEditor(file, deps);
    let edited: unknown;
    try {
      edited = JSON.parse(await readFile(file, 'utf8'));
    } catch (e) {
      throw new AppError(422, 'validation_failed', `The edited trace is not valid JSON (${(e as Error).message}); your text is kept in ${file}.`);
    }
    if (!edited || typeof edited !== 'object' || Array.isArray(edited))
      throw new AppError(422, 'validation_failed', `The edited text must stay one JSON object; it is kept in ${file}.`);
    const updates = changedFields(current, edited as Record<string, unknown>);
    if (!Object.keys(updates).length) {
      keep = false;
      deps.io.note('kairos: no changes; the trace was left as it is');
      return;
    }
    // The version read before editing: a change made meanwhile is refused (409), not overwritten.
    try {
      show(await send(client, uid, updates, opts.expectedVersion ?? current.version));
    } catch (e) {
      if (e instanceof AppError && e.status < 500) throw new AppError(e.status, e.code, `${e.message} Your edit is kept in ${file}.`, { details: e.details });
      throw e;
    }
    keep = false;
  } finally {
    if (!keep) await rm(dir, { recursive: true, force: true });
  }
}
