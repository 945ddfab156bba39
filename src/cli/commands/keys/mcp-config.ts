import { fileURLToPath } from 'node:url';
import { DEFAULT_PORT } from '../../../config/config.js';
import type { McpClient } from './mcp-clients.js';

/**
 * What an agent key gets when `--mcp-config` is given without `--scopes`: read memory, the calendar
 * and the person's rules, write observations, propose plans. Never agent:approve or
 * agent:execute: the person decides (MCP asks for a human in the loop; kairos has one).
 */
export const AGENT_DEFAULT_SCOPES = ['memory:read', 'memory:write', 'calendar:read', 'agent:plan', 'tempo:read', 'export:read'] as const;

const WHERE: Record<McpClient, string> = {
  claude: 'Claude Desktop: Settings → Developer → Edit Config (claude_desktop_config.json); merge this in and restart it.',
  cursor: 'Cursor: ~/.cursor/mcp.json (all projects) or .cursor/mcp.json (one project).',
  vscode: 'VS Code: .vscode/mcp.json in the workspace (or "MCP: Open User Configuration").',
  generic: 'Any MCP client: stdio (command + args + env), or streamable HTTP at the daemon’s /mcp with the key as a bearer token.',
};

/**
 * What reaches this daemon besides KAIROS_HOME: the URL this command was given (--url or
 * KAIROS_URL), else the port of the home's daemon when it is not the default. A desktop app starts
 * `kairos mcp` without the shell's environment, so with the daemon down it would otherwise start
 * one on the default port (KAIROS_PORT set in the shell, say) or not find the one given by URL.
 */
export function daemonReach(baseUrl: string, explicitUrl: string | undefined): Record<string, string> {
  if (explicitUrl) return { KAIROS_URL: baseUrl };
  const { port } = new URL(baseUrl);
  return port && Number(port) !== DEFAULT_PORT ? { KAIROS_PORT: port } : {};
}

/**
 * The configuration snippet for `client`. The command is this node and this kairos by absolute
 * path, because desktop apps start servers without the shell's PATH; a non-default KAIROS_HOME and
 * `reach` (daemonReach) are passed along so the agent reaches the same daemon.
 */
export function mcpConfig(
  client: McpClient,
  o: { key: string; baseUrl: string; home?: string; reach?: Record<string, string> },
): { where: string; json: unknown } {
  const bin = fileURLToPath(new URL('../../../../bin/kairos.js', import.meta.url));
  const env = { KAIROS_API_KEY: o.key, ...(o.home ? { KAIROS_HOME: o.home } : {}), ...o.reach };
  const stdio = { command: process.execPath, args: [bin, 'mcp'], env };
  const json =
    client === 'vscode'
      ? { servers: { kairos: { type: 'stdio', ...stdio } } }
      : client === 'generic'
        ? { stdio, http: { url: `${o.baseUrl}/mcp`, headers: { Authorization: `Bearer ${o.key}` } } }
        : { mcpServers: { kairos: stdio } };
  return { where: WHERE[client], json };
}
