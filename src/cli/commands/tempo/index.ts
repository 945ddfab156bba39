import type { Command } from 'commander';
import { lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';
import { parseLimit } from './limit-arg.js';

export function registerTempo(program: Command, ctx: ProgramContext): void {
  const tempo = program
    .command('tempo')
    .description('when things should happen, and what agents may never do: tags, time ranges, blocked time, cadence, budgets');
  examples(
    tempo
      .command('tags')
      .description('list the tempo tags: built-in and every tag you use')
      .option('--user <user_id>', "another user's tags (admin)")
      .action(lazy(ctx, () => import('./tags.js'))),
    ['kairos tempo tags', 'kairos tempo tags --json | jq -r ".[]"'],
  );
  examples(
    tempo
      .command('profile')
      .description('show your tempo profile: time ranges as a week grid, blocked time, cadence, budget')
      .option('--user <user_id>', "another user's profile (admin)")
      .action(lazy(ctx, () => import('./profile.js'))),
    ['kairos tempo profile', 'kairos tempo profile --json | jq .time_ranges'],
  );
  examples(
    tempo
      .command('set')
      .description('set the time range of a tag (local wall times; an end before the start crosses midnight)')
      .argument('<tag>', 'an @label tag, e.g. @morning or @deep-work')
      .argument('<range>', 'HH:MM-HH:MM, or "none" to remove the tag\'s range')
      .option('--days <days>', 'days it starts on: mon-fri, mon,wed,fri, weekends, daily (default: every day)')
      .action(lazy(ctx, () => import('./set.js'))),
    ['kairos tempo set @morning 07:00-11:30', 'kairos tempo set @deep-work 09:00-11:00 --days mon-fri', 'kairos tempo set @night none'],
  );
  examples(
    tempo
      .command('map')
      .description('map a word or task kind to a tag, for the planner (gym → @morning)')
      .argument('<word>', 'a word or task kind')
      .argument('<tag>', 'the tag, or "none" to remove the mapping')
      .action(lazy(ctx, () => import('./map.js'))),
    ['kairos tempo map gym @morning', 'kairos tempo map "tax return" @afternoon', 'kairos tempo map gym none'],
  );
  examples(
    tempo
      .command('block')
      .description('block time for agents: weekly (HH:MM-HH:MM) or once (a date and time range in words)')
      .argument('<when...>', '12:00-13:00 (weekly), or e.g. "tomorrow 14:00-16:00", "2031-06-02", "June 2 2031 9am"')
      .option('--days <days>', 'weekly blocks: the days (mon-fri, weekends …; default every day)')
      .option('--label <text>', 'what the block is for')
      .option('--for <duration>', 'length of a one-off block given only a start (45m, 2h, 1h30m)')
      .action(lazy(ctx, () => import('./block.js'))),
    ['kairos tempo block 12:00-13:00 --days mon-fri --label lunch', 'kairos tempo block tomorrow 14:00-16:00 --label dentist', 'kairos tempo block 2031-06-02'],
  );
  examples(
    tempo
      .command('unblock')
      .description('remove blocked time by its number in `kairos tempo profile`')
      .argument('<n...>', 'block numbers (#1 …), or "all"')
      .action(lazy(ctx, () => import('./unblock.js'))),
    ['kairos tempo unblock 2', 'kairos tempo unblock 1 3', 'kairos tempo unblock all'],
  );
  examples(
    tempo
      .command('budget')
      .description('limit how many actions agents may schedule per day and per ISO week')
      .option('--per-day <n>', 'actions per day, or "none"', parseLimit('--per-day'))
      .option('--per-week <n>', 'actions per week, or "none"', parseLimit('--per-week'))
      .option('--agent <agent_id>', 'the limits of one agent instead of all agents together')
      .action(lazy(ctx, () => import('./budget.js'))),
    ['kairos tempo budget --per-day 10 --per-week 40', 'kairos tempo budget --agent scout --per-day 3', 'kairos tempo budget --per-day none'],
  );
  examples(
    tempo
      .command('cadence')
      .description('limit how often agents may propose an action kind (add_event, reflect, reschedule_event)')
      .argument('<kind>', 'add_event, reflect or reschedule_event')
      .argument('<rule>', 'N/day or N/week, or "none" to remove the rule')
      .option('--per-event', 'reschedule_event: count per rescheduled event')
      .action(lazy(ctx, () => import('./cadence.js'))),
    ['kairos tempo cadence reflect 1/day', 'kairos tempo cadence reschedule_event 2/week --per-event', 'kairos tempo cadence reflect none'],
  );
}
