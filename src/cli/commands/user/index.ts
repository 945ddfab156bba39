import type { Command } from 'commander';
import { opt } from '../../arg-kinds.js';
import { collect, lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';

export function registerUser(program: Command, ctx: ProgramContext): void {
  const user = program.command('user').description('your profile, password and login tokens');
  examples(
    user
      .command('profile')
      .description('show your profile')
      .action(lazy(ctx, () => import('./profile.js'))),
    ['kairos user profile', 'kairos user profile --json | jq .timezone'],
  );
  examples(
    user
      .command('update')
      .description('change display name, email, time zone or preferences')
      .option('--name <display_name>', 'display name')
      .option('--email <email>', 'email address')
      .addOption(opt('--tz <zone>', 'IANA time zone, e.g. Europe/Berlin', { values: () => Intl.supportedValuesOf('timeZone') }))
      .option('--set <key=value>', 'a preference (repeatable; value parsed as JSON when it can be)', collect, [])
      .option('--current', 'send your current password (needed to change --email with a login token instead of an admin key)')
      .option('--password-stdin', 'with --current: read the current password from stdin instead of prompting')
      .action(lazy(ctx, () => import('./update.js'))),
    [
      'kairos user update --tz Europe/Berlin',
      'kairos user update --name "Ada" --set week_starts=monday',
      'kairos --api-key "$TOKEN" user update --email new@example.com --current',
    ],
  );
  examples(
    user
      .command('passwd')
      .description('set your email and password (for `kairos user login` and frontends)')
      .option('--email <email>', 'email to log in with (required the first time)')
      .option(
        '--password-stdin',
        'read the password from stdin instead of prompting (with --current: the current one on the first line, the new one on the second)',
      )
      .option('--current', 'send your current password too (needed with a login token instead of an admin key)')
      .action(lazy(ctx, () => import('./passwd.js'))),
    [
      'kairos user passwd --email me@example.com',
      'printf "%s" "$PW" | kairos user passwd --email me@example.com --password-stdin',
      'kairos --api-key "$TOKEN" user passwd --current',
    ],
  );
  examples(
    user
      .command('login')
      .description('exchange email and password for a 12-hour token')
      .requiredOption('--email <email>', 'your email')
      .option('--password-stdin', 'read the password from stdin instead of prompting')
      .action(lazy(ctx, () => import('./login.js'))),
    [
      'kairos user login --email me@example.com',
      'TOKEN=$(printf "%s" "$PW" | kairos user login --email me@example.com --password-stdin --json | jq -r .token)',
    ],
  );
}
