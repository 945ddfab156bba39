import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The SDK's own MCP client, connected to a daemon's `/mcp` over streamable HTTP with a key. */
export async function connectMcpHttp(base: string, key: string, headers: Record<string, string> = {}, name = 'kairos-test'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}`, ...headers } } }));
  return client;
}
