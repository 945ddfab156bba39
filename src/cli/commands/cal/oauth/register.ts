import type { Command } from 'commander';
import { collect, lazy, type ProgramContext } from '../../../command-runtime.js';
import { examples } from '../../../examples.js';

/**
 * `kairos cal oauth …`: OAuth 2.0 providers for calendar sync. These commands run the
 * authorization here, where the person and the browser are, and keep the tokens in the home
 * folder (`<home>/oauth/`, mode 0600), as the grant of the user the CLI's credential is (the
 * daemon says who); `kairos cal sync add --oauth <name>` uses them by name. `list` and `remove`
 * ask the daemon, which shows and removes only the caller's own.
 */
export function registerCalOAuth(cal: Command, ctx: ProgramContext): void {
  const oauth = cal.command('oauth').description('OAuth 2.0 providers for calendar sync (Google, Fastmail …): authorize, list, check, remove');
  const how = (c: Command) =>
    c
      .option('--device', 'use the device grant: open a URL on any device and type a code (for a terminal without a browser)')
      .option('--no-browser', 'do not open a browser; print the URL to open');
  examples(
    how(
      oauth
        .command('add')
        .description('add a provider and authorize kairos there (authorization code + PKCE in a browser, or --device)')
        .argument('<name>', 'a name for the provider (what `cal sync add --oauth <name>` takes)')
        .option('--issuer <url>', "the provider's issuer URL (its endpoints are discovered)")
        .requiredOption('--client-id <id>', 'the OAuth client id registered with the provider')
        .option('--client-secret-stdin', 'read the client secret from stdin, or a hidden prompt on a terminal (for providers whose clients have one)')
        .option('--scope <scope>', 'a scope to ask for (repeatable, or several separated by spaces)', collect)
        .option('--authorization-endpoint <url>', 'the authorization endpoint, for a provider without an issuer')
        .option('--token-endpoint <url>', 'the token endpoint, for a provider without an issuer')
        .option('--device-endpoint <url>', 'the device authorization endpoint, for a provider without an issuer')
        .option('--revocation-endpoint <url>', 'the revocation endpoint, for a provider without an issuer')
        .option(
          '--allow-host <host>',
          "a host the calendars signed with this provider are on (repeatable; host, host:port or *.domain); default: the issuer's hosts",
          collect,
        ),
    ).action(lazy(ctx, () => import('./add.js'))),
    [
      'kairos cal oauth add google --issuer https://accounts.google.com --client-id 1234.apps.googleusercontent.com --client-secret-stdin --scope https://www.googleapis.com/auth/calendar < secret.txt',
      'kairos cal oauth add work --issuer https://id.example.com --client-id kairos --scope "openid offline_access calendar" --device',
      'kairos cal oauth add home --token-endpoint https://auth.example.net/token --authorization-endpoint https://auth.example.net/authorize --client-id kairos --allow-host dav.example.net',
    ],
  );
  examples(
    how(
      oauth
        .command('login')
        .description("authorize again with a provider's stored settings (after the grant was revoked or expired)")
        .argument('<name>', 'provider name'),
    ).action(lazy(ctx, () => import('./login.js'))),
    ['kairos cal oauth login google', 'kairos cal oauth login work --device'],
  );
  examples(
    oauth
      .command('list')
      .description('your providers, the state of their grants and the hosts they may reach (never a token or secret)')
      .action(lazy(ctx, () => import('./list.js'))),
    ['kairos cal oauth list', 'kairos cal oauth list --json | jq ".providers[].name"'],
  );
  examples(
    oauth
      .command('check')
      .description('check the grant: refresh the access token if it is due (or with --refresh), without showing it')
      .argument('<name>', 'provider name')
      .option('--refresh', 'refresh now even if the token is still valid')
      .action(lazy(ctx, () => import('./check.js'))),
    ['kairos cal oauth check google', 'kairos cal oauth check google --refresh'],
  );
  examples(
    oauth
      .command('remove')
      .description('delete the tokens and client secret of a provider, and ask it to revoke the grant (asks first; --yes otherwise)')
      .argument('<name>', 'provider name')
      .option('-y, --yes', 'do not ask for confirmation')
      .action(lazy(ctx, () => import('./remove.js'))),
    ['kairos cal oauth remove google', 'kairos cal oauth remove work --yes'],
  );
}
