/** The initialize request of a raw MCP client (tests that speak to `/mcp` without the SDK). */
export const MCP_INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'kairos-test', version: '1' } },
};

/** POST one JSON-RPC body (a message or a batch) to `/mcp` as a streamable-HTTP client sends it. */
export function mcpPost(base: string, credential: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}
