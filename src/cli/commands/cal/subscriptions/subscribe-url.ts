import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FILE_MODE, resolveHome } from '../../../../config/paths.js';
import { writeFileDurable } from '../../../../platform/durable-write.js';
import type { CliDeps, RunInput } from '../../../command-runtime.js';

/** The feed URL made before, kept beside credentials.json (0600): the daemon keeps only a key's hash. */
const urlFile = (deps: CliDeps) => join(resolveHome(deps.env), 'feed-url.json');

async function savedUrl(deps: CliDeps): Promise<{ key_id: string; url: string } | undefined> {
  try {
    const v = JSON.parse(await readFile(urlFile(deps), 'utf8')) as { key_id?: unknown; url?: unknown };
    return typeof v.key_id === 'string' && typeof v.url === 'string' ? { key_id: v.key_id, url: v.url } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The feed URL for calendar apps. The key behind it is made once and reused while it lives, so a
 * second run prints the same URL instead of leaving another key behind; `--new` makes another.
 */
export async function run({ opts }: RunInput<{ name: string; new?: boolean }>, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const saved = opts.new ? undefined : await savedUrl(deps);
  if (saved?.url.startsWith(`${client.baseUrl}/`)) {
    const { keys } = await client.call('GET /auth/keys');
    const key = keys.find((k) => k.id === saved.key_id && !k.revoked_at && (!k.expires_at || Date.parse(k.expires_at) > Date.now()));
    if (key) return show(deps, saved.url, key.id, key.scopes, 'the feed made before; --new makes another');
  }
  const k = await client.call('POST /auth/keys', { body: { name: opts.name, scopes: ['calendar:feed'] } });
  const url = `${client.baseUrl}/calendar/feed.ics?key=${encodeURIComponent(k.key)}`;
  // Kept only to print it again: a home this CLI cannot write to (a remote daemon) just mints next time.
  await writeFileDurable(urlFile(deps), `${JSON.stringify({ key_id: k.id, url })}\n`, { mode: FILE_MODE }).catch(() => undefined);
  show(deps, url, k.id, k.scopes);
}

function show(deps: CliDeps, url: string, keyId: string, scopes: string[], note?: string): void {
  deps.io.data({ url, key_id: keyId, scopes }, () =>
    [url, '', `Add it to your calendar app as a subscription (read-only; key ${keyId}). Revoke with: kairos keys revoke ${keyId}`].join('\n'),
  );
  if (note) deps.io.hint(note);
}
