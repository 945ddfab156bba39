import { readConfigFile, resolveConfig } from '../../config/config.js';
import { homePaths, resolveHome } from '../../config/paths.js';
import { createOutboundClient, type OutboundInit } from './outbound-client.js';

/**
 * `fetch` through the outbound client for code that runs in the CLI as well as in the daemon and
 * has no Config at hand (the OAuth module): the policy and limits come from the home's
 * config.json and the environment, read at each request, as the daemon would resolve them.
 */
export async function homeFetch(url: string, init: OutboundInit, env: NodeJS.ProcessEnv = process.env): Promise<Response> {
  const config = resolveConfig(await readConfigFile(homePaths(resolveHome(env)).config), env);
  return createOutboundClient(config.outbound).fetch(url, init);
}
