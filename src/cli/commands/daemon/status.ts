import { localUrl, lockHolder, runningDaemon } from '../../../client/daemon-process.js';
import { homePaths, resolveHome } from '../../../config/paths.js';
import { VERSION } from '../../../version.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';

export async function run(_input: RunInput, deps: CliDeps): Promise<void> {
  const home = resolveHome(deps.env);
  const log = homePaths(home).daemonLog;
  const s = await runningDaemon(home, deps.env);
  if (!s) {
    // A process that holds the home but does not answer is not "not running": say which it is.
    const pid = await lockHolder(home);
    if (pid) {
      deps.io.data({ status: 'not_answering', home, pid, cli_version: VERSION, log }, () =>
        [`kairos daemon (pid ${pid}) holds ${home} but does not answer: starting, or stuck`, `  log  ${log}  (stop it with "kairos daemon stop")`].join('\n'),
      );
    } else deps.io.data({ status: 'stopped', home, cli_version: VERSION }, () => `kairos daemon is not running (home ${home})`);
    deps.exitCode = 3;
    return;
  }
  const info = { status: 'running', home, url: localUrl(s), pid: s.pid, version: s.version, cli_version: VERSION, started_at: s.started_at, log };
  deps.io.data(info, () =>
    [
      `kairos daemon running at ${info.url}`,
      `  pid ${s.pid}, version ${s.version}${s.version !== VERSION ? ` (CLI is ${VERSION})` : ''}, since ${s.started_at}`,
      `  home ${home}`,
      `  log  ${info.log}`,
    ].join('\n'),
  );
}
