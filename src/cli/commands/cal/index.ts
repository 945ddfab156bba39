import type { Command } from 'commander';
import { arg, opt } from '../../arg-kinds.js';
import { collect, intArg, lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';
import { registerCalOAuth } from './oauth/register.js';

export function registerCal(program: Command, ctx: ProgramContext): void {
  const cal = program.command('cal').description('calendar: add, list, edit and remove events; import, export and subscribe (.ics)');
  examples(
    cal
      .command('add')
      .description('add an event: a phrase ("dentist next tuesday at 3pm for 1h"), or a title with --at, in your time zone')
      .argument('<title...>', 'what the event is, or the whole phrase when --at is not given')
      .option('--at <when>', 'start: natural language or ISO 8601; a bare date (2031-02-10) makes an all-day event')
      .option('--for <duration>', 'length: 45m, 1h30m, 2h, 90 (minutes), 3d (all-day); default 60m')
      .option('--tag <tag>', 'a label to filter by (e.g. a tempo tag such as @deep-work)')
      .addOption(opt('--tz <zone>', 'IANA time zone of the event (default: yours)', { values: () => Intl.supportedValuesOf('timeZone') }))
      .option('--task <task_id>', 'the task the event belongs to')
      .option(
        '--repeat <rule>',
        'recurrence in words (daily, every weekday, every monday and thursday, monthly on the 3rd wednesday, … until 2027-06-30, 5 times) or an RRULE',
      )
      .option('--all-day', 'an all-day event on the date of --at')
      .option('--where <location>', 'location')
      .option('--note <description>', 'description')
      .action(lazy(ctx, () => import('./add.js'))),
    [
      'kairos cal add "dentist next tuesday at 3pm for 1h"',
      'kairos cal add "Dentist" --at "tomorrow 3pm" --for 45m',
      'kairos cal add Standup --at "monday 9:30" --for 15m --repeat "every weekday until 2027-06-30"',
      'kairos cal add "Conference" --at 2031-05-12 --for 3d --tag work',
    ],
  );
  examples(
    cal
      .command('list')
      .description('an agenda grouped by day, recurring events expanded (JSON with --json)')
      .option('--from <when>', 'start of the range (default: now)')
      .option('--to <when>', 'end of the range (default: 7 days after --from)')
      .option('--tag <tag>', 'only events with this tag')
      .action(lazy(ctx, () => import('./views/list.js'))),
    [
      'kairos cal list',
      'kairos cal list --from monday --to "next monday" --tag work',
      'kairos cal list --from 2031-02-01 --to 2031-03-01 --json | jq ".events[].title"',
    ],
  );
  examples(
    cal
      .command('free')
      .description("free time on a day: the profile's day less events and blocked time (all-day events take none)")
      .argument('[day]', 'the day, in words or ISO (today, tuesday, "next friday", 2031-02-10); default today')
      .option('--for <duration>', 'shortest gap worth showing (45m, 1h30m, 2h); default 30m')
      .option('--tag <tag>', "search inside this tag's time range (e.g. @deep-work) instead of the waking day")
      .action(lazy(ctx, () => import('./free.js'))),
    ['kairos cal free tuesday --for 1h', 'kairos cal free tomorrow --for 90m --tag @deep-work', 'kairos cal free 2031-02-10 --json'],
  );
  examples(
    cal
      .command('week')
      .description('the week as a grid: a column per day, all-day events on top, timed ones by the hour (JSON by day with --json)')
      .argument('[date]', 'a day of the week to show: 2026-12-07, "next monday", "in 2 weeks" (default: today)')
      .addOption(
        opt('--week-start <day>', 'first day of the week: monday or sunday (default: the week_starts preference, else the locale, else monday)', {
          values: () => import('./views/grid-input.js').then((m) => m.WEEK_STARTS),
        }),
      )
      .action(lazy(ctx, () => import('./views/week.js'))),
    ['kairos cal week', 'kairos cal week "next monday" --week-start sunday', 'kairos cal week 2026-12-07 --json | jq ".days[].events[].event.title"'],
  );
  examples(
    cal
      .command('month')
      .description('the month as a grid of weeks, each day with the events that fit (+N more) (JSON by day with --json)')
      .argument('[month]', 'the month: 2026-12, december, "dec 2027", "next month" (default: this month)')
      .addOption(
        opt('--week-start <day>', 'first day of the week: monday or sunday (default: the week_starts preference, else the locale, else monday)', {
          values: () => import('./views/grid-input.js').then((m) => m.WEEK_STARTS),
        }),
      )
      .action(lazy(ctx, () => import('./views/month.js'))),
    ['kairos cal month', 'kairos cal month "next month"', 'kairos cal month 2026-12 --json | jq ".days[] | select(.events | length > 0) | .date"'],
  );
  examples(
    cal
      .command('edit')
      .description('change an event (or one occurrence of a series with --occurrence)')
      .addArgument(arg('<uid>', 'event uid', { id: 'event' }))
      .option('--set <key=value>', 'a field to change (repeatable): title, scheduled_for, duration_minutes, tag, rrule, status …; null clears', collect)
      .option('--at <when>', 'new start (natural language or ISO 8601)')
      .option('--for <duration>', 'new length (45m, 1h30m …)')
      .option('--title <title>', 'new title')
      .option('--occurrence <when>', 'edit only the occurrence `cal list` shows at this local date and time ("2031-02-17 09:00"; or an ISO instant)')
      .option('--expected-version <n>', 'refuse unless the event is at this version', intArg('--expected-version', 1))
      .action(lazy(ctx, () => import('./edit.js'))),
    [
      'kairos cal edit ev_01j… --at "friday 4pm"',
      'kairos cal edit ev_01j… --set title="Team sync" --set tag=@meetings',
      'kairos cal edit ev_01j… --occurrence "2031-02-17 09:00" --set status=cancelled',
    ],
  );
  examples(
    cal
      .command('rm')
      .description('remove an event (asks first, naming it, on a terminal; --yes otherwise)')
      .addArgument(arg('<uid>', 'event uid', { id: 'event' }))
      .option('--occurrence <when>', 'remove only the occurrence `cal list` shows at this local date and time ("2031-02-17 09:00")')
      .option('-y, --yes', 'do not ask for confirmation')
      .action(lazy(ctx, () => import('./rm.js'))),
    ['kairos cal rm ev_01j…', 'kairos cal rm ev_01j… --yes', 'kairos cal rm ev_01j… --occurrence "2031-02-17 09:00" --yes'],
  );
  examples(
    cal
      .command('rm-many')
      .description('remove every event an import created, or every event of a source (asks first on a terminal)')
      .option('--import <import_id>', 'the events this import created (its id is in the import report and kairos undo --list)')
      .option('--source <source>', 'every event of this source: import, api, agent')
      .option('-y, --yes', 'do not ask for confirmation')
      .action(lazy(ctx, () => import('./rm-many.js'))),
    ['kairos cal rm-many --import im_01j… --yes', 'kairos cal rm-many --source import'],
  );
  examples(
    cal
      .command('import')
      .description('import an .ics file (re-importing changes nothing); prints the report')
      .addArgument(arg('<file>', 'iCalendar file, or - for stdin', 'file'))
      .action(lazy(ctx, () => import('./import.js'))),
    [
      'kairos cal import ~/Downloads/holidays.ics',
      'curl -s https://example.com/team.ics | kairos cal import -',
      'kairos cal import work.ics --json | jq .errors',
    ],
  );
  examples(
    cal
      .command('export')
      .description('write events as an .ics file (RFC 5545)')
      .option('--from <when>', 'only events with an occurrence from here')
      .option('--to <when>', 'only events with an occurrence before this')
      .option('--tag <tag>', 'only events with this tag')
      .addOption(opt('-o, --output <file>', 'file to write, or - for stdout (default)', 'file'))
      .action(lazy(ctx, () => import('./export.js'))),
    ['kairos cal export -o kairos.ics', 'kairos cal export --from 2031-01-01 --to 2031-07-01 > half-year.ics', 'kairos cal export --tag work -o -'],
  );
  examples(
    cal
      .command('subscribe-url')
      .description('print the feed URL for calendar apps: a key that reads only the feed (calendar:feed), made once and reused')
      .option('--name <name>', 'name of the key', 'calendar feed')
      .option('--new', 'make another key and URL instead of the one made before')
      .action(lazy(ctx, () => import('./subscriptions/subscribe-url.js'))),
    ['kairos cal subscribe-url', 'kairos cal subscribe-url --new --name "phone calendar" --json | jq -r .url'],
  );
  examples(
    cal
      .command('subscribe')
      .description('subscribe to a remote .ics feed (http, https, webcal); the daemon refreshes it, its events are read-only')
      .argument('<url>', 'address of the feed')
      .option('--name <name>', "name shown on the feed's events (default: the URL's host and file)")
      .option('--every <interval>', 'refresh interval: 30m, 2h, 1d (default 1h; at least 5m)')
      .action(lazy(ctx, () => import('./subscriptions/subscribe.js'))),
    [
      'kairos cal subscribe webcal://example.com/holidays.ics --name Holidays',
      'kairos cal subscribe https://calendar.example.com/team.ics --every 30m',
      'kairos cal subscribe https://example.com/f.ics --json | jq .refresh',
    ],
  );
  examples(
    cal
      .command('subscriptions')
      .description('list subscriptions: last refresh, last error, event count')
      .action(lazy(ctx, () => import('./subscriptions/list.js'))),
    ['kairos cal subscriptions', 'kairos cal subscriptions --json | jq ".subscriptions[] | select(.last_error)"'],
  );
  examples(
    cal
      .command('refresh')
      .description('refresh a subscription now (all of them without an id)')
      .addArgument(arg('[id]', 'subscription id (sub_…)', { list: 'subscription' }))
      .action(lazy(ctx, () => import('./subscriptions/refresh.js'))),
    ['kairos cal refresh', 'kairos cal refresh sub_01j…'],
  );
  examples(
    cal
      .command('unsubscribe')
      .description("remove a subscription and its feed's events (asks first on a terminal; --yes otherwise)")
      .addArgument(arg('<id>', 'subscription id (sub_…) or a unique prefix of one', { id: 'subscription' }))
      .option('-y, --yes', 'do not ask for confirmation')
      .action(lazy(ctx, () => import('./subscriptions/unsubscribe.js'))),
    ['kairos cal unsubscribe sub_01j… --yes'],
  );
  const sync = cal.command('sync').description('two-way sync with a CalDAV calendar (Nextcloud, Fastmail, iCloud, Radicale, Baïkal …)');
  examples(
    sync
      .command('add')
      .description(
        'add a CalDAV collection, signed in with a user and password (kept in the home folder, mode 0600) or an OAuth provider; the credentials are checked first',
      )
      .argument('<name>', 'a short name for the account (letters, digits, . _ -)')
      .requiredOption('--collection <url>', 'URL of the calendar collection (--url is the daemon’s address, a global option)')
      .option('--user <user>', 'user name on the server (the password is asked, or read with --password-stdin)')
      .option('--password-stdin', 'read the password from stdin instead of prompting')
      .option('--oauth <provider>', 'sign in with an OAuth provider set up with `kairos cal oauth add` (instead of --user)')
      .action(lazy(ctx, () => import('./sync/add.js'))),
    [
      'kairos cal sync add work --collection https://dav.example.com/alice/work/ --user alice',
      'pass show dav | kairos cal sync add work --collection https://dav.example.com/alice/work/ --user alice --password-stdin',
      'kairos cal sync add family --collection https://apidata.googleusercontent.com/caldav/v2/ID/events/ --oauth google',
    ],
  );
  examples(
    sync
      .command('list')
      .description('accounts: last sync, its counts and last error')
      .action(lazy(ctx, () => import('./sync/list.js'))),
    ['kairos cal sync list', 'kairos cal sync list --json | jq ".accounts[].last_error"'],
  );
  examples(
    sync
      .command('run')
      .description('sync now (one account, or all of them); reports counts and conflicts')
      .addArgument(arg('[name]', 'account name', { list: 'caldav-account' }))
      .action(lazy(ctx, () => import('./sync/run.js'))),
    ['kairos cal sync run', 'kairos cal sync run work --json | jq .runs[0].conflicts'],
  );
  examples(
    sync
      .command('remove')
      .description('remove an account and its stored password (its events stay in kairos; an OAuth provider stays for other accounts)')
      .addArgument(arg('<name>', 'account name', { list: 'caldav-account' }))
      .option('-y, --yes', 'do not ask for confirmation')
      .action(lazy(ctx, () => import('./sync/remove.js'))),
    ['kairos cal sync remove work --yes'],
  );
  registerCalOAuth(cal, ctx);
}
