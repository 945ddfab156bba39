/** The MCP clients `keys create --mcp-config` writes a snippet for (kept apart: the command index loads it without the snippet code). */
export const MCP_CLIENTS = ['claude', 'cursor', 'vscode', 'generic'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];
