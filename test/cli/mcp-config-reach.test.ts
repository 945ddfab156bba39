import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv, removeHome, runCli, startDaemon, type TestDaemon } from '../helpers/daemon.js';
import { type SnippetServer, snippetToolNames } from '../helpers/mcp-snippet.js';

/**
 * `keys create --mcp-config` snippets reach the daemon the command reached: the URL it was given
 * (--url / KAIROS_URL), or the port of the home's daemon when it is not the default, so that a
 * desktop app starting `kairos mcp` while that daemon is down starts it there again.
 */
const daemons: TestDaemon[] = [];
afterAll(async () => {
  for (const d of daemons) {
    await runCli(['daemon', 'stop'], { env: { KAIROS_HOME: d.home } });
    await d.stop();
    removeHome(d.home);
  }
});

const snippet = async (env: Record<string, string | undefined>) => {
  const r = await runCli(['--json', 'keys', 'create', 'desk', '--agent', 'desk', '--mcp-config', 'claude'], { env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).mcp_config.mcpServers.kairos as SnippetServer;
};

describe('--mcp-config snippets name the daemon they were made for', () => {
  it('carries the URL the command was given', async () => {
    const d = await startDaemon();
    daemons.push(d);
    const server = await snippet(cliEnv(d));
    expect(server.env.KAIROS_URL).toBe(d.base);
  }, 90_000);

  it('carries a non-default port, and kairos mcp started from it with the daemon down starts it on that port', async () => {
    const d = await startDaemon();
    daemons.push(d);
    // Found through the home's daemon.json, as a person's shell does it.
    const server = await snippet({ KAIROS_HOME: d.home });
    expect(server.env).toMatchObject({ KAIROS_HOME: d.home, KAIROS_PORT: String(d.port) });
    expect(server.env.KAIROS_URL).toBeUndefined();
    await d.stop();

    expect(await snippetToolNames(server)).toContain('plan_propose');
    expect(JSON.parse(readFileSync(join(d.home, 'daemon.json'), 'utf8')).port).toBe(d.port);
  }, 120_000);
});
