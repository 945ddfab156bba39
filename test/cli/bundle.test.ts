import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/daemon.js';

// Issue 17: bin/kairos.js runs dist/bundle/ (scripts/bundle.mjs). Its source maps must still turn a
// stack trace into src/ lines, or a failure in the daemon's log would point into a 3 MB chunk.

describe('dist/bundle/', () => {
  it('is what bin/kairos.js runs', () => {
    expect(readFileSync(join(ROOT, 'bin', 'kairos.js'), 'utf8')).toContain("import('../dist/bundle/main.js')");
  });

  it('gives stack traces in src/ lines with source maps on', () => {
    // An error thrown under a command's run() reaches main()'s catch, which prints its stack.
    const script = `
      process.setSourceMapsEnabled(true);
      const { main } = await import(${JSON.stringify(join(ROOT, 'dist', 'bundle', 'main.js'))});
      let err = '';
      const out = { on() {}, isTTY: false, write() { throw new Error('stdout refused'); } };
      const errs = { on() {}, isTTY: false, write(s) { err += s; return true; } };
      await main(['node', 'kairos', 'completion', 'bash'], { stdout: out, stderr: errs, stdin: process.stdin }, process.env);
      process.stdout.write(err);`;
    const stack = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(stack).toContain('stdout refused');
    expect(stack).toContain(join(ROOT, 'src', 'cli', 'commands', 'completion', 'completion.ts'));
    expect(stack).toContain(join(ROOT, 'src', 'cli', 'main.ts'));
    expect(stack).not.toMatch(/dist\/bundle\//);
  });
});
