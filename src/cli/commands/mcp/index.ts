import type { Command } from 'commander';
import { lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';

export function registerMcp(program: Command, ctx: ProgramContext): void {
  examples(
    program
      .command('mcp')
      .description('serve kairos to an AI agent over MCP on stdio (stdout carries only protocol messages)')
      .option('--agent <name>', 'record writes and proposals as this agent (X-Agent-ID; a key minted with --agent already is)')
      .action(lazy(ctx, () => import('./mcp.js'))),
    ['KAIROS_API_KEY=<agent key> kairos mcp', 'kairos keys create --agent claude --mcp-config claude'],
  );
}
