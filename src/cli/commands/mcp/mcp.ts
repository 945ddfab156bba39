import type { CliDeps, RunInput } from '../../command-runtime.js';

/**
 * `kairos mcp`: the MCP server on stdin/stdout for desktop agents. It talks to the daemon over
 * HTTP with the configured key (starting the daemon like every command), offers what the key's
 * scopes allow, and forwards the daemon's `/ws` changes as resource notifications. Runs until the
 * client closes stdin. Logs only to stderr: stdout belongs to the protocol.
 */
export async function run({ opts }: RunInput<{ agent?: string }>, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const [{ serveStdio }, { liveChanges }, { VERSION }] = await Promise.all([
    import('../../../mcp/stdio.js'),
    import('./live-changes.js'),
    import('../../../version.js'),
  ]);
  const headers = opts.agent ? { 'x-agent-id': opts.agent } : undefined;
  const port = {
    // The port's arguments are the endpoint's own, already checked by the tool's schema.
    call: (name: string, args: object = {}) => client.call(name as never, { ...args, ...(headers ? { headers } : {}) } as never),
  };
  const feed = liveChanges(client, (m) => deps.io.error(`kairos mcp: ${m}`));
  try {
    await serveStdio(port, { version: VERSION, changes: feed.follow });
  } finally {
    feed.stop();
  }
}
