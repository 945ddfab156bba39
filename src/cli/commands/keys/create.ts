import { SCOPES, type Scope } from '../../../contracts/scopes.js';
import { type CliDeps, type RunInput, usage } from '../../command-runtime.js';
import type { McpClient } from './mcp-clients.js';
import { AGENT_DEFAULT_SCOPES, daemonReach, mcpConfig } from './mcp-config.js';
import { showMinted } from './show-minted.js';

export async function run({ args, opts }: RunInput<{ scopes?: string; agent?: string; ttl?: number; mcpConfig?: McpClient }>, deps: CliDeps): Promise<void> {
  if (opts.scopes === undefined && !opts.mcpConfig)
    throw usage('Give the key its scopes: --scopes memory:read,agent:plan (or --mcp-config <client> for an agent key).');
  const scopes = (opts.scopes ?? AGENT_DEFAULT_SCOPES.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (bad.length) throw usage(`Unknown scope(s): ${bad.join(', ')}. Known: ${SCOPES.join(', ')}.`);
  const client = await deps.client();
  const k = await client.call('POST /auth/keys', {
    body: { name: args[0], scopes: scopes as Scope[], ...(opts.agent ? { agent_id: opts.agent } : {}), ...(opts.ttl ? { ttl_seconds: opts.ttl } : {}) },
  });
  if (!opts.mcpConfig) return showMinted(k, deps, 'Created');
  const { where, json } = mcpConfig(opts.mcpConfig, {
    key: k.key,
    baseUrl: client.baseUrl,
    ...(deps.env.KAIROS_HOME ? { home: deps.env.KAIROS_HOME } : {}),
    reach: daemonReach(client.baseUrl, deps.globals.url ?? deps.env.KAIROS_URL),
  });
  if (deps.io.json) return deps.io.data({ ...k, mcp_config: json });
  showMinted(k, deps, 'Created');
  deps.io.line(`\n${where}\n${JSON.stringify(json, null, 2)}`);
}
