import { awaitStartingDaemon, localUrl, lockHolder, runningDaemon, startDetached } from '../../../client/daemon-process.js';
import { openingNote } from '../../../client/opening-progress.js';
import { homePaths, resolveHome } from '../../../config/paths.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';
import { type BindOptions, bindArgs } from './bind-args.js';

export async function run({ opts }: RunInput<BindOptions>, deps: CliDeps): Promise<void> {
  const home = resolveHome(deps.env);
  // Running already, or being started by another command right now: that daemon serves this home.
  const running = (await runningDaemon(home, deps.env)) ?? ((await lockHolder(home)) ? await awaitStartingDaemon(home, deps.env) : undefined);
  if (running) {
    deps.io.data({ status: 'running', already: true, ...running }, () => `kairos daemon already running at ${localUrl(running)} (pid ${running.pid})`);
    return;
  }
  const s = await startDetached(home, deps.env, {
    args: bindArgs(opts),
    portFallback: opts.port === undefined,
    onOpening: (p) => deps.io.note(openingNote(p)),
  });
  deps.io.data({ status: 'running', already: false, ...s }, () =>
    [
      `kairos daemon started at ${s.url} (pid ${s.pid})`,
      ...(s.port_fallback_from !== undefined
        ? [`  port ${s.port_fallback_from} is in use by another program; set "port" in ${homePaths(home).config} to choose one`]
        : []),
    ].join('\n'),
  );
}
