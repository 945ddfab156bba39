import { type CliDeps, type RunInput, usage } from '../../command-runtime.js';
import { readInput } from '../../input/read-input.js';

const TYPES = ['observation', 'goal', 'reflection'] as const;
type NoteType = (typeof TYPES)[number];
/** A search hit at least this good is the task a note clearly fits. */
const FITS = 0.6;
const DEFAULT_TASK = 'notes';

/**
 * `kairos note TEXT`: one trace from one line; stdin gives one note per line. Without --task a
 * note joins the task of the memory it most clearly matches (search), else the default task.
 */
export async function run({ args, opts }: RunInput<{ task?: string; type?: string }>, deps: CliDeps): Promise<void> {
  if (opts.type !== undefined && !(TYPES as readonly string[]).includes(opts.type))
    throw usage(`--type must be one of ${TYPES.join(', ')}, not "${opts.type}".`);
  const type = (opts.type ?? 'observation') as NoteType;
  const lines = args.length
    ? [args.join(' ')]
    : (await readInput(undefined, deps)).text
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
  if (!lines.length || !lines.every((l) => l.trim())) throw usage('Give the note as text: kairos note "Slept badly" (or one per line on stdin).');
  const client = await deps.client();
  const traces: { type: NoteType; task_id: string; content: string }[] = [];
  for (const content of lines) {
    let task = opts.task;
    if (!task) {
      const hits = await client.call('POST /memory/search', { body: { query: content, limit: 1 } }).catch(() => undefined);
      const top = hits?.results[0];
      task = top && top.score >= FITS && top.type !== 'calendar_event' ? top.task_id : DEFAULT_TASK;
    }
    traces.push({ type, task_id: task, content });
  }
  const res = await client.call('POST /memory/push', { body: { traces } });
  deps.io.data(res, () => res.saved.map((s, i) => `Noted ${s.uid} in ${traces[i]!.task_id}: ${deps.io.clip(traces[i]!.content, 80)}`).join('\n'));
}
