import { resolveHome } from '../../../config/paths.js';
// `kairos daemon run` is the daemon's own entry point: the one CLI command that starts it in-process.
// biome-ignore lint/style/noRestrictedImports: the daemon's entry, not a layer the CLI calls into
import { type RunningDaemon, runDaemon } from '../../../daemon/run.js';
import { exitCodeFor } from '../../../errors.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';
import { jsonLine } from '../../output/log-line.js';
import type { BindOptions } from './bind-args.js';

/** Foreground daemon: resolves only when a signal has stopped it cleanly. */
export async function run({ opts }: RunInput<BindOptions & { portFallback?: boolean; logJson?: boolean }>, deps: CliDeps): Promise<void> {
  // Detached, stdout and stderr are daemon.log: every line it gets is a JSON line like pino's.
  const say = opts.logJson ? (l: string) => deps.io.line(jsonLine(30, l)) : (l: string) => deps.io.line(l);
  const fail = opts.logJson ? (l: string) => deps.io.line(jsonLine(50, l)) : (l: string) => deps.io.error(l);
  // Handlers go in before the "listening" line is printed: a supervisor may signal right after it.
  let daemon: RunningDaemon | undefined;
  let signalled = false;
  let finish!: () => void;
  const stopped = new Promise<void>((r) => (finish = r));
  const stop = () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    void daemon!.stop().then(finish, (e: unknown) => {
      fail(`kairos: error while stopping: ${(e as Error).message}`);
      deps.exitCode = 1;
      finish();
    });
  };
  const onSignal = () => {
    signalled = true;
    if (daemon) stop();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  try {
    daemon = await runDaemon({
      home: resolveHome(deps.env),
      port: opts.port,
      host: opts.host,
      tlsCert: opts.tlsCert,
      tlsKey: opts.tlsKey,
      insecure: opts.insecure,
      portFallback: opts.portFallback,
      env: deps.env,
      stdout: say,
    });
  } catch (e) {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    if (!opts.logJson) throw e;
    fail(`kairos: ${(e as Error).message}`);
    deps.exitCode = exitCodeFor(e) || 1;
    return;
  }
  if (signalled) stop();
  await stopped;
  // The stop has waited for all it must (the journal's last sync, the lock): work still turning
  // after it (the search model decoding its files, an embedding batch) must not hold the exit, and
  // neither must the heap's teardown, which a natural exit runs and which grows with the store.
  // Output is already out: stdout and stderr are synchronous for files and pipes on POSIX.
  process.exitCode = deps.exitCode;
  setImmediate(() => process.exit());
}
