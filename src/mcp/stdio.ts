import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ApiPort } from './api-port.js';
import { type ChangeFeed, createMcpServer } from './server.js';

/** Serve MCP on this process's stdin/stdout until the client closes it. */
export async function serveStdio(port: ApiPort, o: { version: string; changes?: ChangeFeed }): Promise<void> {
  const { server, close } = await createMcpServer(port, o);
  const transport = new StdioServerTransport();
  const done = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await done;
  close();
  await server.close().catch(() => {});
}
