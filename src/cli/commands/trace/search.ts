import type { EndpointBody } from '../../../contracts/endpoints.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';
import { instantFlags } from '../../input/when.js';
import { markedMatch } from '../../output/match-text.js';
import { localStamp } from '../../output/time.js';

interface SearchOpts {
  mode?: string;
  type?: string;
  tag?: string;
  task?: string;
  space?: string;
  since?: string;
  until?: string;
  limit?: number;
  includeExpired?: boolean;
}

export async function run({ args, opts }: RunInput<SearchOpts>, deps: CliDeps): Promise<void> {
  const range = await instantFlags(deps, {
    start_time: { value: opts.since, flag: '--since' },
    end_time: { value: opts.until, flag: '--until', bound: 'end' },
  });
  // The other flags pass through as typed: the daemon validates them (422 naming the field).
  const body: EndpointBody<'POST /memory/search'> = {
    query: args.join(' '),
    mode: opts.mode as EndpointBody<'POST /memory/search'>['mode'],
    type: opts.type as EndpointBody<'POST /memory/search'>['type'],
    tempo_tag: opts.tag,
    task_id: opts.task,
    space: opts.space,
    ...range,
    limit: opts.limit,
    include_expired: opts.includeExpired || undefined,
  };
  const res = await (await deps.client()).call('POST /memory/search', { body });
  if (!deps.io.json) {
    if (res.mode_used !== res.mode)
      deps.io.note(`kairos: ${res.mode_used} results instead of ${res.mode}${res.embeddings?.fallback_reason ? `: ${res.embeddings.fallback_reason}` : ''}`);
    else if (res.embeddings?.fallback_reason) deps.io.note(`kairos: ${res.embeddings.fallback_reason}`);
    if (res.embeddings?.preparing) deps.io.note(`kairos: ${res.embeddings.preparing}`);
  }
  const c = deps.io.chalk;
  const tz = deps.io.json ? 'UTC' : await deps.userZone();
  const id = deps.io.ids(res.results.map((r) => r.uid));
  deps.io.data(res, () =>
    res.results.length
      ? deps.io.table(
          ['SCORE', 'UID', 'TYPE', 'TASK', `TIME (${tz})`, 'MATCH'],
          res.results.map((r) => [
            r.score.toFixed(2),
            id(r.uid),
            r.type,
            deps.io.clip(r.task_id, 20),
            localStamp(r.timestamp, tz),
            markedMatch(r, c, deps.io.plain ? undefined : 60),
          ]),
        )
      : c.dim('no matches'),
  );
}
