import { resolveHome } from '../../../config/paths.js';
import { runDaemon } from '../../../daemon/run.js';
import type { CliDeps, RunInput } from '../../kit.js';
import type { BindOptions } from './bind-args.js';

/** Foreground daemon: resolves only when a signal has stopped it cleanly. */
export async function run({ opts }: RunInput<BindOptions>, deps: CliDeps): Promise<void> {
  const d = await runDaemon({ home: resolveHome(deps.env), port: opts.port, host: opts.host, tlsCert: opts.tlsCert, tlsKey: opts.tlsKey, insecure: opts.insecure, env: deps.env, stdout: (l) => deps.io.line(l) });
  await new Promise<void>((done) => {
    const onSignal = () => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      void d.stop().then(done, (e) => {
        deps.io.error(`kairos: error while stopping: ${(e as Error).message}`);
        deps.exitCode = 1;
        done();
      });
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}
