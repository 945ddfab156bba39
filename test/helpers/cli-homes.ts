import { afterAll } from 'vitest';
import { removeHome, runCli, tempHome } from './daemon.js';
import { processesOfHome } from './processes.js';

/**
 * Temp homes for CLI tests whose commands start daemons. After the file, each home's daemon is
 * stopped, any process still running in it is killed, and the home is removed.
 */
export function cliHomes(): () => string {
  const homes: string[] = [];
  afterAll(async () => {
    for (const h of homes) {
      await runCli(['daemon', 'stop'], { env: { KAIROS_HOME: h } });
      for (const p of processesOfHome(h)) process.kill(p.pid, 'SIGKILL');
      removeHome(h);
    }
  });
  return () => {
    const h = tempHome();
    homes.push(h);
    return h;
  };
}
