import { type Command, Option } from 'commander';
import { SCOPES } from '../../../contracts/scope-list.js';
import { arg } from '../../arg-kinds.js';
import { intArg, lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';
import { MCP_CLIENTS } from './mcp-clients.js';

export function registerKeys(program: Command, ctx: ProgramContext): void {
  const keys = program.command('keys').description('create, list, rotate and revoke API keys');
  examples(
    keys
      .command('create')
      .description('create an API key; its secret is printed once')
      .argument('<name>', 'a name to recognise the key by')
      .option('-s, --scopes <scopes>', `comma-separated scopes: ${SCOPES.join(',')} (required unless --mcp-config)`)
      .option('--agent <agent_id>', 'bind the key to an agent: its writes are authored by that agent')
      .option('--ttl <seconds>', 'expire after this many seconds', intArg('--ttl', 1))
      .addOption(
        new Option('--mcp-config <client>', "also print a ready MCP configuration for this client (scopes default to an agent's: no approve)").choices(
          MCP_CLIENTS,
        ),
      )
      .action(lazy(ctx, () => import('./create.js'))),
    [
      'kairos keys create planner-bot --scopes memory:read,agent:plan --agent planner-bot',
      'kairos keys create ci --scopes memory:read --ttl 3600',
      'kairos keys create claude --agent claude --mcp-config claude',
      'kairos keys create feed --scopes calendar:read --json | jq -r .key',
    ],
  );
  examples(
    keys
      .command('list')
      .description('list keys (never their secrets)')
      .action(lazy(ctx, () => import('./list.js'))),
    ['kairos keys list', 'kairos keys list --json'],
  );
  examples(
    keys
      .command('rotate')
      .description('give a key a new secret; the old one stops working')
      .addArgument(arg('<id>', 'key id (key_…)', { id: 'key' }))
      .action(lazy(ctx, () => import('./rotate.js'))),
    ['kairos keys rotate key_01h…'],
  );
  examples(
    keys
      .command('revoke')
      .description('revoke a key at once')
      .addArgument(arg('<id>', 'key id (key_…)', { id: 'key' }))
      .option('-y, --yes', 'do not ask for confirmation')
      .action(lazy(ctx, () => import('./revoke.js'))),
    ['kairos keys revoke key_01h… --yes'],
  );
}
