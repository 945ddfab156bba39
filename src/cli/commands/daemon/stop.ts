import { stopDaemon } from '../../../client/daemon-process.js';
import { resolveHome } from '../../../config/paths.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';

export async function run(_input: RunInput, deps: CliDeps): Promise<void> {
  const s = await stopDaemon(resolveHome(deps.env));
  deps.io.data({ stopped: Boolean(s), pid: s?.pid ?? null }, () => (s ? `kairos daemon stopped (pid ${s.pid})` : 'kairos daemon was not running'));
}
