import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/daemon.js';

const FILES = { bash: 'completions/kairos.bash', zsh: 'completions/_kairos', fish: 'completions/kairos.fish' } as const;

describe('shell completions', () => {
  it.each(Object.entries(FILES))('completions/ for %s match the command tree (run `npm run completions` after changing commands)', async (shell, file) => {
    const r = await runCli(['completion', shell]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(ROOT, file), 'utf8')).toBe(r.stdout);
  });

  it('the bash script completes nouns, verbs and flags', () => {
    const script = join(ROOT, FILES.bash);
    const complete = (words: string[]) =>
      execFileSync(
        'bash',
        ['-c', `source ${script}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _kairos; echo "\${COMPREPLY[@]}"`],
        { encoding: 'utf8' },
      )
        .trim()
        .split(/\s+/);
    expect(complete(['kairos', 'da'])).toEqual(['daemon']);
    expect(complete(['kairos', 'daemon', ''])).toEqual(expect.arrayContaining(['run', 'start', 'stop', 'restart', 'status', 'logs']));
    expect(complete(['kairos', '--json', 'keys', 'create', '--s'])).toEqual(['--scopes']);
  });

  it('an unknown shell is a usage error', async () => {
    expect((await runCli(['completion', 'tcsh'])).code).toBe(2);
  });

  it('every argument or option that takes a file is declared as one (so the scripts complete paths there)', async () => {
    const { createProgram } = await import('../../dist/cli/program.js');
    const { kindOf } = await import('../../dist/cli/arg-kinds.js');
    const program = await createProgram({ streams: process, env: {} });
    const undeclared: string[] = [];
    const visit = (cmd: Command, path: string) => {
      for (const a of cmd.registeredArguments) if (/file|path/.test(a.name()) && kindOf(a) !== 'file') undeclared.push(`${path} <${a.name()}>`);
      for (const o of cmd.options) if (/<(file|path)>/.test(o.flags) && kindOf(o) !== 'file') undeclared.push(`${path} ${o.flags}`);
      for (const c of cmd.commands) visit(c, `${path} ${c.name()}`);
    };
    visit(program, 'kairos');
    expect(undeclared).toEqual([]);
  });
});
