import type { CallQuery } from '../../../client/call-args.js';
import { usage } from '../../command-runtime.js';

export interface ExportOpts {
  format?: string;
  from?: string;
  to?: string;
  tag?: string;
  task?: string;
  type?: string;
  groupBy?: string;
  maxTokens?: number;
  includeFeedback?: boolean;
  includeExpired?: boolean;
  since?: string;
  until?: string;
  sinceCheckpoint?: string;
  untilCheckpoint?: string;
  checkpoint?: string;
  listCheckpoints?: boolean;
  limit?: number;
  cursor?: string;
  all?: boolean;
  user?: string;
  output?: string;
}

type Query = CallQuery<'GET /context/export'>;

/**
 * The query of GET /context/export from the flags: a diff flag without --format means a diff.
 * Flags pass through as typed: the daemon validates them (422 naming the parameter).
 */
export function exportQuery(opts: ExportOpts, userId: string): Query {
  const wantsDiff = [opts.since, opts.until, opts.sinceCheckpoint, opts.untilCheckpoint].some((v) => v !== undefined);
  const format = opts.format ?? (wantsDiff ? 'diff' : 'summary');
  if (opts.all && opts.maxTokens !== undefined) throw usage('--all and --max-tokens do not mix: the token cap holds per page. Use one or the other.');
  if (opts.maxTokens !== undefined && format !== 'summary')
    throw usage(`--max-tokens applies to --format summary only, not ${format}: leave out --max-tokens, or use --format summary.`);
  if (format === 'diff' && opts.since === undefined && opts.sinceCheckpoint === undefined) {
    throw usage('A diff needs --since <when> or --since-checkpoint <name> (e.g. kairos export --format diff --since-checkpoint monday).');
  }
  return {
    user_id: userId,
    export_format: format as Query['export_format'],
    start_time: opts.from,
    end_time: opts.to,
    tempo_tag: opts.tag,
    task_id: opts.task,
    type: opts.type as Query['type'],
    group_by: opts.groupBy as Query['group_by'],
    max_token_count: opts.maxTokens,
    include_feedback: opts.includeFeedback ? 'true' : undefined,
    include_expired: opts.includeExpired ? 'true' : undefined,
    since: opts.since,
    until: opts.until,
    from_checkpoint: opts.sinceCheckpoint,
    to_checkpoint: opts.untilCheckpoint,
    checkpoint: opts.checkpoint,
    limit: opts.limit,
    cursor: opts.cursor,
  };
}
