import { homePaths, resolveHome } from '../../../config/paths.js';
import { localUrl, runningDaemon } from '../../../client/connect.js';
import { VERSION } from '../../../version.js';
import type { CliDeps, RunInput } from '../../kit.js';

export async function run(_input: RunInput, deps: CliDeps): Promise<void> {
  const home = resolveHome(deps.env);
  const s = await runningDaemon(home);
  if (!s) {
    deps.io.data({ status: 'stopped', home, cli_version: VERSION }, () => `kairos daemon is not running (home ${home})`);
    deps.exitCode = 3;
    return;
  }
  const info = { status: 'running', home, url: localUrl(s), pid: s.pid, version: s.version, cli_version: VERSION, started_at: s.started_at, log: homePaths(home).daemonLog };
  deps.io.data(info, () =>
    [`kairos daemon running at ${info.url}`, `  pid ${s.pid}, version ${s.version}${s.version !== VERSION ? ` (CLI is ${VERSION})` : ''}, since ${s.started_at}`, `  home ${home}`, `  log  ${info.log}`].join('\n'),
  );
}
