import type { Command } from 'commander';

/** A node of the command tree as completion scripts need it. */
interface Node {
  path: string[];
  description: string;
  options: string[];
  children: Node[];
}

function walk(cmd: Command, path: string[]): Node {
  return {
    path,
    description: cmd.description().split('\n')[0] ?? '',
    options: cmd.options
      .filter((o) => !o.hidden)
      .flatMap((o) => [o.short, o.long].filter((f): f is string => Boolean(f)))
      .concat('--help'),
    children: cmd.commands.map((c) => walk(c, [...path, c.name()])),
  };
}

function flatten(n: Node): Node[] {
  return [n, ...n.children.flatMap(flatten)];
}

const HEADER = '# Generated from the kairos command tree by `npm run completions`; do not edit.';

/** Completion script for the shell, generated from the commander tree (completions/ is drift-tested). */
export function completionScript(program: Command, shell: 'bash' | 'zsh' | 'fish'): string {
  const root = walk(program, []);
  const nodes = flatten(root);
  const words = (n: Node) => [...n.children.map((c) => c.path.at(-1)!), ...n.options].join(' ');
  const key = (n: Node) => n.path.join(' ');
  if (shell === 'fish') {
    const lines = [HEADER, 'complete -c kairos -f'];
    for (const n of nodes) {
      const cond = n.path.length === 0 ? '__fish_use_subcommand' : `__kairos_path_is ${n.path.join(' ')}`;
      for (const c of n.children) lines.push(`complete -c kairos -n '${cond}' -a ${c.path.at(-1)} -d ${fishQuote(c.description)}`);
      for (const o of n.options.filter((o) => o.startsWith('--'))) lines.push(`complete -c kairos -n '${cond}' -l ${o.slice(2)}`);
    }
    return [
      HEADER,
      'function __kairos_path_is',
      '    set -l words (commandline -opc)',
      '    set -e words[1]',
      '    set -l path',
      '    for w in $words',
      "        string match -q -- '-*' $w; and continue",
      '        set path $path $w',
      '    end',
      '    test "$path" = "$argv"',
      'end',
      ...lines.slice(1),
      '',
    ].join('\n');
  }
  const cases = nodes.map((n) => `    "${key(n)}") words="${words(n)}" ;;`).join('\n');
  const known = nodes.filter((n) => n.children.length).flatMap((n) => n.children.map((c) => `"${key(c)}"`));
  const body = [
    '  local cur path w words cand',
    '  path=""',
    '  for ((i=1; i<cword; i++)); do',
    '    w="${line[i]}"',
    '    [[ "$w" == -* ]] && continue',
    '    cand="${path:+$path }$w"',
    '    case "$cand" in',
    `      ${known.join('|')}) path="$cand" ;;`,
    '    esac',
    '  done',
    '  case "$path" in',
    cases,
    '    *) words="" ;;',
    '  esac',
  ].join('\n');
  if (shell === 'bash') {
    return [
      HEADER,
      '_kairos() {',
      '  local -a line=("${COMP_WORDS[@]}")',
      '  local cword=$COMP_CWORD',
      body,
      '  cur="${COMP_WORDS[COMP_CWORD]}"',
      '  COMPREPLY=($(compgen -W "$words" -- "$cur"))',
      '}',
      'complete -F _kairos kairos',
      '',
    ].join('\n');
  }
  return [
    '#compdef kairos',
    HEADER,
    '_kairos() {',
    '  setopt localoptions ksharrays',
    '  local -a line=("${words[@]}")',
    '  local cword=$((CURRENT - 1))',
    body.replace('local cur path w words cand', 'local cur path w cand words_str').replace(/words="/g, 'words_str="'),
    '  compadd -- ${=words_str}',
    '}',
    'compdef _kairos kairos',
    '',
  ].join('\n');
}

function fishQuote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
