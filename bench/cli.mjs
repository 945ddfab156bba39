// CLI cold start: `kairos --help` against a bare `node -e 0`, so the number is what kairos adds.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/kairos.js', import.meta.url));

function timeIt(args, n = 15) {
  const ms = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    execFileSync(process.execPath, args, { stdio: 'ignore' });
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return ms[Math.floor(n / 2)];
}

export async function run() {
  const bare = timeIt(['-e', '0']);
  const help = timeIt([BIN, '--help']);
  const verbHelp = timeIt([BIN, 'keys', 'create', '--help']);
  return [
    { name: 'node -e 0 (baseline, median)', value: bare, unit: 'ms' },
    { name: 'kairos --help (median)', value: help, unit: 'ms', goal: '< 120 ms' },
    { name: 'kairos keys create --help (median)', value: verbHelp, unit: 'ms', goal: '< 120 ms' },
    { name: 'kairos --help over baseline', value: help - bare, unit: 'ms' },
  ];
}
