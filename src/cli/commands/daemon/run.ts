import { resolveHome } from '../../../config/paths.js';
// `kairos daemon run` is the daemon's own entry point: the one CLI command that starts it in-process.
// biome-ignore lint/style/noRestrictedImports: the daemon's entry, not a layer the CLI calls into
import { type RunningDaemon, runDaemon } from '../../../daemon/run.js';
import type { CliDeps, RunInput } from '../../kit.js';
import type { BindOptions } from './bind-args.js';

/** Foreground daemon: resolves only when a signal has stopped it cleanly. */
export async function run({ opts }: RunInput<BindOptions & { portFallback?: boolean }>, deps: CliDeps): Promise<void> {
  // Handlers go in before the "listening" line is printed: a supervisor may signal right after it.
  let daemon: RunningDaemon | undefined;
  let signalled = false;
  let finish!: () => void;
  const stopped = new Promise<void>((r) => (finish = r));
  const stop = () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    void daemon!.stop().then(finish, (e: unknown) => {
      deps.io.error(`kairos: error while stopping: ${(e as Error).message}`);
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
      stdout: (l) => deps.io.line(l),
    });
  } catch (e) {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    throw e;
  }
  if (signalled) stop();
  await stopped;
}
