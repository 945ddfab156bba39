import type { Command } from 'commander';
import { arg } from '../../arg-kinds.js';
import { lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';

const KEYS =
  'port, host, rate_limit, cache_ttl_minutes, planner.{provider,base_url,model,timeout_ms}, embeddings.{base_url,model}, snapshot.{every_ops,every_ms,backups}';

export function registerConfig(program: Command, ctx: ProgramContext): void {
  const config = program.command('config').description("read and change the daemon's settings (config.json in the home folder)");
  examples(
    config
      .command('list')
      .description('every setting, its value in effect and where it comes from (config.json, an environment variable, the default)')
      .action(lazy(ctx, () => import('./list.js'))),
    ['kairos config list', 'kairos config list --json | jq .settings'],
  );
  examples(
    config
      .command('get')
      .description('the value in effect of one setting')
      .addArgument(arg('<key>', KEYS, { values: () => import('./settings.js').then((m) => m.settings().map((s) => s.key)) }))
      .action(lazy(ctx, () => import('./get.js'))),
    ['kairos config get port', 'kairos config get planner.provider'],
  );
  examples(
    config
      .command('set')
      .description('change a setting, checked before it is written; a running daemon applies it after a restart')
      .addArgument(arg('<key>', KEYS, { values: () => import('./settings.js').then((m) => m.settings().map((s) => s.key)) }))
      .argument('<value>', 'the new value')
      .action(lazy(ctx, () => import('./set.js'))),
    ['kairos config set rate_limit 300', 'kairos config set planner.provider openai', 'kairos config set planner.base_url http://127.0.0.1:11434/v1'],
  );
  examples(
    config
      .command('unset')
      .description('remove a setting from config.json (its default applies)')
      .addArgument(arg('<key>', KEYS, { values: () => import('./settings.js').then((m) => m.settings().map((s) => s.key)) }))
      .action(lazy(ctx, () => import('./set.js'))),
    ['kairos config unset port'],
  );
}
