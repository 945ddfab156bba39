import { writeFile } from 'node:fs/promises';
import type { CliDeps, RunInput } from '../../command-runtime.js';
import { usage } from '../../command-runtime.js';
import { instantFlags } from '../../input/when.js';
import { mergePages } from './merge.js';
import { type ExportOpts, exportQuery } from './query.js';
import { renderCheckpoints, renderExport } from './render.js';

export async function run({ opts }: RunInput<ExportOpts>, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const { io } = deps;
  // The API wants user_id spelled out; the CLI defaults it to whoever the key belongs to.
  const userId = opts.user ?? (await client.call('GET /user/profile')).user_id;
  if (opts.listCheckpoints) {
    const res = await client.call('GET /context/checkpoints', { query: { user_id: userId } });
    const tz = await deps.userZone();
    return emit(res, () => renderCheckpoints(res.checkpoints, io, tz), opts, deps);
  }
  const dates = await instantFlags(deps, {
    from: { value: opts.from, flag: '--from' },
    to: { value: opts.to, flag: '--to', bound: 'end' },
    since: { value: opts.since, flag: '--since' },
    until: { value: opts.until, flag: '--until', bound: 'end' },
  });
  const query = exportQuery({ ...opts, ...dates }, userId);
  let body = await client.call('GET /context/export', { query });
  let pages = 1;
  while (opts.all && body.next_cursor) {
    // The checkpoint is saved by the first page; later pages only read.
    const next = await client.call('GET /context/export', { query: { ...query, checkpoint: undefined, cursor: body.next_cursor } });
    body = mergePages(body, next);
    io.hint(`page ${++pages}…`);
  }
  const tz = io.json ? 'UTC' : await deps.userZone();
  await emit(body, () => renderExport(body, io.chalk, tz, (deps.streams.stdout as { columns?: number }).columns, io.plain), opts, deps);
  if (body.token_count !== undefined) io.hint(`${body.token_count} tokens (o200k)${body.truncated ? ', cut to fit --max-tokens' : ''}`);
  if (body.checkpoint && opts.output) io.hint(`saved checkpoint ${body.checkpoint.name} (${body.checkpoint.id})`);
  if (body.next_cursor && io.plain && !io.json) io.hint(`more: --cursor ${body.next_cursor} (or --all)`);
}

/** JSON to a file (or to stdout with `-o -`); else the readable view, or JSON with --json. */
async function emit(value: unknown, readable: () => string, opts: ExportOpts, deps: CliDeps): Promise<void> {
  const { io } = deps;
  if (opts.output && opts.output !== '-') {
    try {
      await writeFile(opts.output, JSON.stringify(value, null, 2) + '\n');
    } catch (e) {
      throw usage(`Cannot write ${opts.output}: ${(e as Error).message}.`);
    }
    io.hint(`wrote ${opts.output}`);
    return;
  }
  io.data(value, opts.output === '-' ? undefined : readable);
}
