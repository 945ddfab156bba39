import { type DaemonState, readDaemonState } from '../config/daemon-state.js';
import { homePaths } from '../config/paths.js';
import { assertOwnHome } from '../config/paths-trust.js';
import { AppError } from '../errors.js';
import { bareHost, interfaceAddresses, isLoopbackHost, isWildcardAddress } from '../platform/loopback.js';

/**
 * A host on this machine: loopback names and addresses, the wildcards (the CLI reaches those on
 * loopback), and this machine's own addresses (a daemon can only listen on those).
 */
function onThisMachine(host: string): boolean {
  const h = bareHost(host);
  return isLoopbackHost(h) || h.endsWith('.localhost') || isWildcardAddress(h) || interfaceAddresses().has(h);
}

/** The host the person configured for the daemon: KAIROS_HOST, else config.json's `host`. */
async function configuredHost(configPath: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (env.KAIROS_HOST) return env.KAIROS_HOST;
  const { readConfigObject } = await import('../config/config.js');
  const host = (await readConfigObject(configPath).catch(() => ({}) as Record<string, unknown>)).host;
  return typeof host === 'string' ? host : undefined;
}

/**
 * daemon.json of a home, when the CLI may send that home's key to the address in it: the home is
 * the user's own (see assertOwnHome) and the host is on this machine or the configured one. A
 * daemon.json that names any other host is refused before anything connects to it: whoever wrote it
 * (a synced or shared home, a KAIROS_HOME set by someone else) would receive the key.
 */
export async function trustedDaemonState(home: string, env: NodeJS.ProcessEnv): Promise<DaemonState | undefined> {
  await assertOwnHome(home);
  const paths = homePaths(home);
  const s = await readDaemonState(paths.daemonJson);
  if (!s) return undefined;
  if (typeof s.host === 'string') {
    if (onThisMachine(s.host)) return s;
    const configured = await configuredHost(paths.config, env);
    if (configured !== undefined && bareHost(configured) === bareHost(s.host)) return s;
  }
  throw new AppError(
    403,
    'daemon_untrusted',
    `${paths.daemonJson} names the host ${s.host}, which is neither this machine nor the configured host, so kairos does not send your key there. If your daemon listens there, set "host" in ${paths.config} or pass --url; otherwise remove ${paths.daemonJson}.`,
  );
}
