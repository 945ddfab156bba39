import type { UserProfile } from '../../../contracts/users.js';
import type { CliDeps } from '../../command-runtime.js';

export function showProfile(p: UserProfile, deps: CliDeps): void {
  deps.io.data(p, () =>
    [
      `${p.display_name} (${p.user_id})`,
      `  email     ${p.email ?? '-'}`,
      `  timezone  ${p.timezone}`,
      `  since     ${p.created_at}`,
      ...(Object.keys(p.preferences).length ? [`  prefs     ${JSON.stringify(p.preferences)}`] : []),
    ].join('\n'),
  );
}
