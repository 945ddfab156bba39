import { type Command, Option } from 'commander';
import { opt } from '../../arg-kinds.js';
import { intArg, lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';

export function registerExport(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('export')
      .description('export memory context for a language model: summary, full, linked or diff (JSON with --json or -o)')
      .addOption(
        new Option('--format <mode>', 'summary | full | linked | diff (default summary; diff when --since… is given)').choices([
          'summary',
          'full',
          'linked',
          'diff',
        ]),
      )
      .option('--from <when>', 'only traces at or after this time: yesterday, monday, 2031-02-01 or ISO 8601, in your zone')
      .option('--to <when>', 'only traces at or before this time (a day alone includes that day)')
      .option('--tag <tempo_tag>', 'only this tempo tag (@morning, 25m …)')
      .option('--task <task_id>', 'only this task')
      .addOption(opt('--type <type>', 'only this trace type', { values: () => import('../../../contracts/memory.js').then((m) => m.TRACE_TYPES) }))
      .addOption(new Option('--group-by <key>', 'group the results by day (in your time zone), task or trace_type').choices(['day', 'task', 'trace_type']))
      .option('--max-tokens <n>', 'summary: cap on the summaries’ tokens (o200k)', intArg('--max-tokens', 1))
      .option('--include-feedback', 'keep feedback ratings and notes')
      .option('--include-expired', 'also traces whose valid_until has passed')
      .option('--since <when>', 'diff: compare memory as it was at this time (words or ISO)…')
      .option('--until <when>', 'diff: …with memory as it was at this one (default now)')
      .option('--since-checkpoint <name>', 'diff: compare from this checkpoint (name or cp_ id)…')
      .option('--until-checkpoint <name>', 'diff: …to this checkpoint (default now)')
      .option('--checkpoint <name>', 'save this export as a named checkpoint (the version of every selected trace)')
      .option('--list-checkpoints', 'list the saved checkpoints instead of exporting')
      .option('--limit <n>', 'items per page (1–1000, default 100)', intArg('--limit', 1))
      .option('--cursor <cursor>', 'continue from a previous page (its next_cursor)')
      .option('--all', 'follow the cursor through every page (not with --max-tokens)')
      .option('--user <user_id>', "another user's context (admin only)")
      .addOption(opt('-o, --output <file>', 'write the JSON to this file (- = stdout, even on a terminal)', 'file'))
      .action(lazy(ctx, () => import('./export.js'))),
    [
      'kairos export --task marathon --max-tokens 500 | llm "What should I train this week?"',
      'kairos export --format diff --since-checkpoint monday --checkpoint tuesday -o changes.json',
      'kairos export --format linked --task marathon --group-by day',
    ],
  );
}
