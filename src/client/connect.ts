import { readCredentials } from '../config/credentials.js';
import { homePaths, resolveHome } from '../config/paths.js';
import { assertOwnHome } from '../config/paths-trust.js';
import { AppError } from '../errors.js';
import { pidAlive } from '../platform/process.js';
import { VERSION } from '../version.js';
import { localUrl } from './daemon-url.js';
import { ApiClient } from './http.js';
import { type OpeningProgress, openingNote } from './opening-progress.js';
import { timeoutFromEnv } from './timeouts.js';
import { trustedDaemonState } from './trusted-daemon.js';

export interface ConnectOptions {
  env: NodeJS.ProcessEnv;
  url?: string;
  apiKey?: string;
  autostart: boolean;
  /** One-line notices (auto-start) for stderr. */
  note: (line: string) => void;
}

/** Start the home's daemon for a command, or join the start another command has under way. */
async function autostart(home: string, o: ConnectOptions, dp: typeof import('./daemon-process.js')) {
  const { awaitStartingDaemon, lockHolder, startDetached } = dp;
  // Several commands at once on a stopped home: the first one's daemon holds the lock while it
  // starts; the others wait for it rather than start daemons that can only lose.
  if (await lockHolder(home)) {
    const s = await awaitStartingDaemon(home, o.env);
    if (s) return s;
  }
  // Said once, by the command that starts it: the others of a burst only wait for it.
  let spawned = false;
  const onSpawn = () => {
    spawned = true;
    o.note(`kairos: starting the daemon for ${home}`);
  };
  const onOpening = (p: OpeningProgress) => o.note(openingNote(p));
  const s = await startDetached(home, o.env, { portFallback: true, onSpawn, onOpening });
  if (spawned && s.port_fallback_from !== undefined) {
    o.note(
      `kairos: port ${s.port_fallback_from} is in use by another program; the daemon listens on ${s.port} instead (recorded in daemon.json; set "port" in ${homePaths(home).config} to choose one)`,
    );
  }
  return s;
}

/**
 * The address of the home's daemon as checked to answer /health: started (or restarted on a
 * version mismatch) when needed.
 */
async function discover(home: string, o: ConnectOptions): Promise<string> {
  // Spawning and stopping daemons (node:child_process) loads only on this path.
  const dp = await import('./daemon-process.js');
  const { runningDaemon, stopDaemon } = dp;
  let s = await runningDaemon(home, o.env);
  if (s && s.version !== VERSION && o.autostart) {
    o.note(`kairos: restarting the daemon (it runs ${s.version}, this CLI is ${VERSION})`);
    await stopDaemon(home);
    s = undefined;
  }
  if (!s) {
    if (!o.autostart) throw new AppError(503, 'daemon_unreachable', `The kairos daemon is not running for ${home}; start it with "kairos daemon start".`);
    s = await autostart(home, o, dp);
  }
  return localUrl(s);
}

/**
 * A client for the daemon: an explicit --url/KAIROS_URL is used as it is; otherwise the daemon of
 * KAIROS_HOME, started (or restarted on a version mismatch) when needed. A daemon.json of this
 * version naming a live process is trusted without asking /health first (a round trip, and a
 * busy daemon's slowest answer, off every command): should its address refuse the connection,
 * the client finds the daemon again as above and sends the request there.
 */
export async function connect(o: ConnectOptions): Promise<ApiClient> {
  const home = resolveHome(o.env);
  const paths = homePaths(home);
  const explicit = o.url ?? o.env.KAIROS_URL;
  const givenKey = o.apiKey ?? o.env.KAIROS_API_KEY;
  const timeoutMs = timeoutFromEnv(o.env);
  // The home is read only when it is its owner's alone (the key and the address come from it).
  if (!explicit || !givenKey) await assertOwnHome(home);
  const [state, credentials] = await Promise.all([
    explicit ? undefined : trustedDaemonState(home, o.env),
    givenKey ? undefined : readCredentials(paths.credentials),
  ]);
  if (explicit) return new ApiClient({ baseUrl: explicit, apiKey: givenKey ?? credentials?.api_key, timeoutMs });
  if (state && state.version === VERSION && pidAlive(state.pid)) {
    return new ApiClient({ baseUrl: localUrl(state), apiKey: givenKey ?? credentials?.api_key, timeoutMs, rediscover: () => discover(home, o) });
  }
  const baseUrl = await discover(home, o);
  // A daemon started just now has only now written the owner's key.
  const apiKey = givenKey ?? (await readCredentials(paths.credentials))?.api_key;
  return new ApiClient({ baseUrl, apiKey, timeoutMs });
}
