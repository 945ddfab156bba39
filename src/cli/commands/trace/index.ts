import type { Command } from 'commander';
import { arg, opt } from '../../arg-kinds.js';
import { collect, intArg, lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';

const TYPES = 'goal|observation|reflection|agent_plan|calendar_event|transition';

export function registerTrace(program: Command, ctx: ProgramContext): void {
  const trace = program.command('trace').description('push, pull, show, edit and search memory traces');
  examples(
    trace
      .command('push')
      .description('save traces from a file or stdin (a JSON array, one object, or NDJSON), all or nothing')
      .addArgument(arg('[file]', 'JSON or NDJSON file; - (or nothing, on a pipe) reads stdin', 'file'))
      .action(lazy(ctx, () => import('./push.js'))),
    [
      `echo '{"type":"observation","task_id":"health","content":"Slept 8 hours"}' | kairos trace push -`,
      'kairos trace push traces.ndjson',
      'kairos trace push week.json --json | jq -r ".saved[].uid"',
    ],
  );
  examples(
    trace
      .command('pull')
      .description('list traces, oldest first, filtered by task, tag, type and time')
      .option('--task <task_id>', 'only this task')
      .option('--tag <tempo_tag>', 'only this tempo tag (@morning, 25m …)')
      .addOption(opt('--type <type>', `only this type: ${TYPES}`, { values: () => import('../../../contracts/memory.js').then((m) => m.TRACE_TYPES) }))
      .option('--since <when>', 'from this time (inclusive): yesterday, "monday 9:00", 2031-02-01 or ISO 8601, in your zone')
      .option('--until <when>', 'up to this time (inclusive; a day alone includes that day)')
      .option('--limit <n>', 'traces per page (1–1000, default 100)', intArg('--limit', 1))
      .option('--cursor <cursor>', 'continue from a previous page (its next_cursor)')
      .option('--all', 'follow the cursor through every page')
      .option('--space <space>', 'only traces of this space')
      .option('--include-expired', 'also traces whose valid_until has passed')
      .option('--user <user_id>', "another user's traces (admin only)")
      .action(lazy(ctx, () => import('./pull.js'))),
    ['kairos trace pull --task health', 'kairos trace pull --type goal --since 2031-01-01T00:00:00Z', 'kairos trace pull --all --json | jq ".traces | length"'],
  );
  examples(
    trace
      .command('show')
      .description('print one trace')
      .addArgument(arg('<uid>', 'trace uid', { id: 'trace' }))
      .action(lazy(ctx, () => import('./show.js'))),
    ['kairos trace show tr_01hx…', 'kairos trace show my-note-1 --json'],
  );
  examples(
    trace
      .command('edit')
      .description('change a trace; without --set, opens $EDITOR on its JSON (concurrent edits are refused, not lost)')
      .addArgument(arg('<uid>', 'trace uid', { id: 'trace' }))
      .option('--set <key=value>', 'set a field (repeatable); value null clears an optional field', collect, [])
      .option('--expected-version <n>', 'refuse unless the trace is at this version', intArg('--expected-version', 1))
      .action(lazy(ctx, () => import('./edit.js'))),
    ['kairos trace edit tr_01hx… --set importance=5 --set tempo_tag=@morning', 'kairos trace edit my-note-1', 'EDITOR=nano kairos trace edit my-note-1'],
  );
  examples(
    trace
      .command('history')
      .description('every version of a trace with a diff')
      .addArgument(arg('<uid>', 'trace uid', { id: 'trace' }))
      .action(lazy(ctx, () => import('./history.js'))),
    ['kairos trace history tr_01hx…', 'kairos trace history my-note-1 --json | jq ".versions[].patch"'],
  );
  examples(
    trace
      .command('search')
      .description('full-text search (stemming, prefixes, typos), best first')
      .argument('<query...>', 'words to look for')
      .addOption(
        opt('--mode <mode>', 'keyword|semantic|hybrid (default hybrid: words and meaning together)', {
          values: () => import('../../../contracts/memory.js').then((m) => m.SEARCH_MODES),
        }),
      )
      .addOption(opt('--type <type>', `only this type: ${TYPES}`, { values: () => import('../../../contracts/memory.js').then((m) => m.TRACE_TYPES) }))
      .option('--tag <tempo_tag>', 'only this tempo tag')
      .option('--task <task_id>', 'only this task')
      .option('--space <space>', 'search this space, ranked by its own statistics (default: the default space)')
      .option('--since <when>', 'only traces from this time (inclusive): yesterday, "monday 9:00", 2031-02-01, in your zone')
      .option('--until <when>', 'only traces up to this time (inclusive; a day alone includes that day)')
      .option('--limit <n>', 'at most this many results (1–200, default 20)', intArg('--limit', 1))
      .option('--include-expired', 'also traces whose valid_until has passed')
      .action(lazy(ctx, () => import('./search.js'))),
    [
      'kairos trace search dentist',
      'kairos trace search "sleep quality" --type observation --since 2031-01-01T00:00:00Z',
      'kairos trace search "when did we move" --space conv-26 --json | jq -r ".results[0].content"',
    ],
  );
}
