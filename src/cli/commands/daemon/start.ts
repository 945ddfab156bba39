import { resolveHome } from '../../../config/paths.js';
import { localUrl, runningDaemon, startDetached } from '../../../client/connect.js';
import type { CliDeps, RunInput } from '../../kit.js';
import { bindArgs, type BindOptions } from './bind-args.js';

export async function run({ opts }: RunInput<BindOptions>, deps: CliDeps): Promise<void> {
  const home = resolveHome(deps.env);
  const running = await runningDaemon(home);
  if (running) {
    deps.io.data({ status: 'running', already: true, ...running }, () => `kairos daemon already running at ${localUrl(running)} (pid ${running.pid})`);
    return;
  }
  const s = await startDetached(home, deps.env, bindArgs(opts));
  deps.io.data({ status: 'running', already: false, ...s }, () => `kairos daemon started at ${s.url} (pid ${s.pid})`);
}
