import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cleanEnv } from './daemon.js';

/** The stdio server of a `keys create --mcp-config` snippet. */
export interface SnippetServer {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** Start a snippet's server exactly as a desktop app would (its command, args and env over a clean environment) and list its tools. */
export async function snippetToolNames(server: SnippetServer, env: Record<string, string> = {}): Promise<string[]> {
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: { ...cleanEnv(), ...server.env, ...env } as Record<string, string>,
    stderr: 'pipe',
  });
  const c = new Client({ name: 'snippet-test', version: '1.0.0' });
  await c.connect(transport);
  try {
    return (await c.listTools()).tools.map((t) => t.name);
  } finally {
    await c.close();
  }
}
