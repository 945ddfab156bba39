import { startDetached, stopDaemon } from '../../../client/daemon-process.js';
import { openingNote } from '../../../client/opening-progress.js';
import { resolveHome } from '../../../config/paths.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';
import { type BindOptions, bindArgs } from './bind-args.js';

export async function run({ opts }: RunInput<BindOptions>, deps: CliDeps): Promise<void> {
  const home = resolveHome(deps.env);
  await stopDaemon(home);
  const s = await startDetached(home, deps.env, {
    args: bindArgs(opts),
    portFallback: opts.port === undefined,
    onOpening: (p) => deps.io.note(openingNote(p)),
  });
  deps.io.data({ status: 'running', ...s }, () => `kairos daemon restarted at ${s.url} (pid ${s.pid})`);
}
