import { type Command, Option } from 'commander';
import { opt } from '../../arg-kinds.js';
import { intArg, lazy, type ProgramContext } from '../../command-runtime.js';
import { examples } from '../../examples.js';

export function registerDaemon(program: Command, ctx: ProgramContext): void {
  const daemon = program.command('daemon').description('run and manage the background daemon');
  const bind = (c: Command) =>
    c
      .option('--port <port>', 'port to listen on (0 = any free port; env KAIROS_PORT)', intArg('--port'))
      .option('--host <host>', 'address to bind (default 127.0.0.1; env KAIROS_HOST)')
      .addOption(opt('--tls-cert <file>', 'TLS certificate (PEM) to serve HTTPS', 'file'))
      .addOption(opt('--tls-key <file>', 'TLS private key (PEM)', 'file'))
      .addOption(new Option('--insecure', 'allow plain HTTP on a non-loopback address'));
  examples(
    bind(daemon.command('run').description('run the daemon in the foreground (logs to daemon.log)'))
      // Set by `daemon start` and auto-start: listen on a free port when the configured one is taken.
      .addOption(new Option('--port-fallback').hideHelp())
      // Set by `daemon start` and auto-start, whose output goes to daemon.log: write it as JSON lines.
      .addOption(new Option('--log-json').hideHelp())
      .action(lazy(ctx, () => import('./run.js'))),
    ['kairos daemon run', 'kairos daemon run --port 0', 'kairos daemon run --host 0.0.0.0 --tls-cert cert.pem --tls-key key.pem'],
  );
  examples(bind(daemon.command('start').description('start the daemon in the background')).action(lazy(ctx, () => import('./start.js'))), [
    'kairos daemon start',
    'kairos daemon start --port 7441',
  ]);
  examples(
    daemon
      .command('stop')
      .description('stop the running daemon')
      .action(lazy(ctx, () => import('./stop.js'))),
    ['kairos daemon stop'],
  );
  examples(bind(daemon.command('restart').description('stop, then start the daemon')).action(lazy(ctx, () => import('./restart.js'))), [
    'kairos daemon restart',
  ]);
  examples(
    daemon
      .command('status')
      .description('is the daemon running, where, which version')
      .action(lazy(ctx, () => import('./status.js'))),
    ['kairos daemon status', 'kairos daemon status --json'],
  );
  examples(
    daemon
      .command('logs')
      .description("print the daemon's log (JSON lines; readable here, as they are with --json)")
      .option('-f, --follow', 'keep printing new lines')
      .option('-n, --lines <n>', 'how many last lines', intArg('--lines', 1), 50)
      .action(lazy(ctx, () => import('./logs.js'))),
    ['kairos daemon logs', 'kairos daemon logs -f', 'kairos daemon logs -n 200 | grep error'],
  );
}
