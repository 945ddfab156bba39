import { type CliDeps, type RunInput, usage } from '../../command-runtime.js';

interface Opts {
  rating?: number;
  comment?: string;
  duration?: number;
  action?: string;
  revision?: string;
}

export async function run({ args, opts }: RunInput<Opts>, deps: CliDeps): Promise<void> {
  if (opts.rating !== undefined && opts.rating > 5) throw usage(`--rating must be 1–5, not ${opts.rating}.`);
  if (opts.action !== undefined && opts.duration === undefined) throw usage('--action names the action a --duration revision is about; give --duration too.');
  const revision =
    opts.duration !== undefined
      ? { duration_minutes: opts.duration, ...(opts.action ? { action_id: opts.action } : {}), ...(opts.revision ? { text: opts.revision } : {}) }
      : opts.revision;
  if (opts.rating === undefined && opts.comment === undefined && revision === undefined) throw usage('Give --rating, --comment, --duration or --revision.');
  const body = {
    uid: args[0],
    ...(opts.rating !== undefined ? { rating: opts.rating } : {}),
    ...(opts.comment ? { comment: opts.comment } : {}),
    ...(revision !== undefined ? { revision } : {}),
  };
  const t = await (await deps.client()).call('POST /agent/feedback', { body });
  deps.io.data(t, () =>
    [`Feedback logged on ${t.type} ${t.uid}`, t.feedback_rating !== undefined ? `  rating ${t.feedback_rating}/5` : '', t.notes ? `  notes  ${t.notes}` : '']
      .filter(Boolean)
      .join('\n'),
  );
}
