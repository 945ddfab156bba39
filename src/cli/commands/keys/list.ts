import type { CliDeps, RunInput } from '../../command-runtime.js';

export async function run(_input: RunInput, deps: CliDeps): Promise<void> {
  const res = await (await deps.client()).call('GET /auth/keys');
  const id = deps.io.ids(res.keys.map((k) => k.id));
  deps.io.data(res, () =>
    deps.io.table(
      ['ID', 'NAME', 'AGENT', 'SCOPES', 'EXPIRES', 'STATE'],
      res.keys.map((k) => [
        id(k.id),
        k.name,
        k.agent_id ?? '-',
        k.scopes.join(','),
        k.expires_at ?? 'never',
        k.revoked_at ? 'revoked' : k.expires_at && Date.parse(k.expires_at) < Date.now() ? 'expired' : 'active',
      ]),
    ),
  );
}
