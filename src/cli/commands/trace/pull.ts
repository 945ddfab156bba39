import type { CallQuery } from '../../../client/call-args.js';
import type { EndpointResponse } from '../../../contracts/endpoints.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';
import { instantFlags } from '../../input/when.js';
import { localStamp } from '../../output/time.js';

interface PullOpts {
  task?: string;
  tag?: string;
  type?: string;
  since?: string;
  until?: string;
  space?: string;
  limit?: number;
  cursor?: string;
  all?: boolean;
  includeExpired?: boolean;
  user?: string;
}

type Page = EndpointResponse<'GET /memory/pull'>;

export async function run({ opts }: RunInput<PullOpts>, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const range = await instantFlags(deps, {
    start_time: { value: opts.since, flag: '--since' },
    end_time: { value: opts.until, flag: '--until', bound: 'end' },
  });
  // The other flags pass through as typed: the daemon validates them (422 naming the parameter).
  const query: CallQuery<'GET /memory/pull'> = {
    user_id: opts.user,
    task_id: opts.task,
    tempo_tag: opts.tag,
    type: opts.type as CallQuery<'GET /memory/pull'>['type'],
    ...range,
    space: opts.space,
    limit: opts.limit,
    include_expired: opts.includeExpired ? 'true' : undefined,
  };
  let page = await client.call('GET /memory/pull', { query: { ...query, cursor: opts.cursor } });
  const traces = [...page.traces];
  while (opts.all && page.next_cursor) {
    page = await client.call('GET /memory/pull', { query: { ...query, cursor: page.next_cursor } });
    traces.push(...page.traces);
  }
  const result: Page = { traces, next_cursor: page.next_cursor };
  const c = deps.io.chalk;
  const tz = deps.io.json ? 'UTC' : await deps.userZone();
  deps.io.data(result, () => {
    if (!traces.length) return c.dim('no traces');
    // On a terminal the content fills what the other columns leave; on a pipe it is whole.
    const columns = (deps.streams.stdout as { columns?: number }).columns;
    const width = columns ? columns - 100 : 80;
    const id = deps.io.ids(traces.map((t) => t.uid));
    const out = deps.io.table(
      ['UID', 'TYPE', 'TASK', `TIME (${tz})`, 'TAG', 'V', 'CONTENT'],
      traces.map((t) => [
        id(t.uid),
        t.type,
        deps.io.clip(t.task_id, 20),
        localStamp(t.timestamp, tz),
        t.tempo_tag ?? '',
        t.version,
        deps.io.clip(t.content, Math.max(30, width)),
      ]),
    );
    if (result.next_cursor) deps.io.hint(`more: --cursor ${result.next_cursor} (or --all)`);
    return out;
  });
}
