import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, ROOT, runCli, useDaemon } from '../helpers/daemon.js';

// The README's daily examples, run as written (in order) against the real daemon.

const d = useDaemon();
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const block = /<!-- daily-examples[^>]*-->\s*```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
const lines = block.split('\n').filter((l) => l.startsWith('kairos '));

/** `kairos plan "a b" --yes` → ['plan', 'a b', '--yes'] (double quotes only, as the README writes them). */
const argv = (line: string) => [...line.slice('kairos '.length).matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);

describe('the README’s daily examples', () => {
  it('are there', () => {
    expect(lines.length).toBeGreaterThanOrEqual(5);
  });

  it('each runs and exits 0', async () => {
    for (const line of lines) {
      const r = await runCli(argv(line), { env: cliEnv(d) });
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
    }
  });
});
