import { readCredentials } from '../../../../config/credentials.js';
import { homePaths, resolveHome } from '../../../../config/paths.js';
import { grantForbidden, mayUseGrants, type OAuthAccountSummary } from '../../../../contracts/oauth.js';
import type { AuthorizeOptions, OAuthAccounts } from '../../../../sync/oauth/index.js';
import type { CliDeps } from '../../../command-runtime.js';

export interface HowOptions {
  device?: boolean;
  /** commander's `--no-browser`: false when given. */
  browser?: boolean;
}

/**
 * The OAuth providers of this home, and the kairos user this command acts for (the daemon tells who
 * the CLI's credential is): grants are theirs, and only their own login or an admin key uses them.
 * A provider written before grants had an owner is the home owner's (credentials.json names them).
 */
export async function grantsOfCaller(deps: CliDeps): Promise<{ oauth: OAuthAccounts; user: string; hasDisplay: (env: NodeJS.ProcessEnv) => boolean }> {
  const who = await (await deps.client()).call('GET /auth/whoami');
  if (!mayUseGrants(who)) throw grantForbidden();
  const { createOAuth, hasDisplay } = await import('../../../../sync/oauth/index.js');
  const home = resolveHome(deps.env);
  const oauth = createOAuth({ home, env: deps.env, homeOwner: async () => (await readCredentials(homePaths(home).credentials))?.user_id });
  return { oauth, user: who.user_id, hasDisplay };
}

/**
 * Runs an authorization (a new provider, or `login` with a stored one) and says what the person
 * must do on stderr, always (not only on a TTY: without it nobody could finish the login). The
 * URL and the code stand on lines of their own so they can be copied.
 */
export async function authorizeWith(
  deps: CliDeps,
  how: HowOptions,
  run: (o: AuthorizeOptions, oauth: OAuthAccounts) => Promise<OAuthAccountSummary>,
): Promise<void> {
  const { oauth, user, hasDisplay } = await grantsOfCaller(deps);
  const say = (l: string) => deps.io.error(l);
  const summary = await run(
    {
      owner: user,
      mode: how.device ? 'device' : 'loopback',
      openUrl: how.browser === false ? null : undefined,
      prompt: (p) => {
        if (p.kind === 'browser') {
          say(
            p.opened
              ? 'Your browser was opened to authorize kairos. If it did not open, visit:'
              : 'Open this URL in a browser on this machine to authorize kairos:',
          );
          say(`  ${p.url}`);
          if (!p.opened && !hasDisplay(deps.env)) say('(No browser on this machine? Press Ctrl-C and run the command again with --device.)');
        } else {
          say(`On any device, open ${p.verification_uri} and enter the code:`);
          say(`  ${p.user_code}`);
          if (p.verification_uri_complete) say(`or open directly:\n  ${p.verification_uri_complete}`);
          say(`(the code is valid for ${Math.max(1, Math.round(p.expires_in / 60))} minutes)`);
        }
        say('Waiting for the authorization…');
      },
    },
    oauth,
  );
  deps.io.data(summary, () =>
    [
      `Authorized "${summary.name}" at ${summary.issuer}${summary.has_refresh_token ? '; the access token is refreshed automatically' : '; no refresh token was given: authorize again when the token expires'}.`,
      `Use it for a CalDAV calendar with: kairos cal sync add <calendar> --collection <collection-url> --oauth ${summary.name}`,
    ].join('\n'),
  );
}
