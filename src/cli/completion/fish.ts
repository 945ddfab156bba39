import { type NodeSpec, optionCases, repeatable } from './render.js';

/** A fish single-quoted word: only \ and ' are special inside. */
const fq = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
/** A fish candidate with its description (fish shows what follows the tab). */
const described = (name: string, description: string) => fq(`${name}\t${description}`);

/**
 * The fish script: one function prints the candidates for the line (fish filters them by the
 * token and shows the descriptions), walking it as the bash and zsh scripts do.
 */
export function fishScript(nodes: NodeSpec[], header: string): string {
  const node = nodes.flatMap((n) => {
    const lines = [`    case ${fq(n.path.join(' '))}`];
    if (n.subs.length) lines.push(`      set -g __kairos_subs ${n.subs.map((s) => described(s.name, s.description)).join(' ')}`);
    lines.push(`      set -g __kairos_opts ${n.options.flatMap((o) => o.names.map((name) => described(name, o.description))).join(' ')}`);
    if (n.args.length) lines.push(`      set -g __kairos_args ${n.args.map(fq).join(' ')}`);
    if (n.variadic) lines.push('      set -g __kairos_variadic 1');
    if (repeatable(n).length) lines.push(`      set -g __kairos_reps ${repeatable(n).map(fq).join(' ')}`);
    return lines;
  });
  return [
    header,
    'function __kairos_node',
    '  set -g __kairos_subs',
    '  set -g __kairos_opts',
    '  set -g __kairos_args',
    '  set -g __kairos_variadic',
    '  set -g __kairos_reps',
    '  switch "$argv[1]"',
    ...node,
    '  end',
    'end',
    'function __kairos_optval',
    '  switch "$argv[1]|$argv[2]"',
    ...optionCases(nodes).map(([keys, code]) => `    case ${keys.map(fq).join(' ')}\n      echo ${fq(code)}`),
    '  end',
    'end',
    'function __kairos_values',
    '  switch $argv[1]',
    '    case file',
    '      __fish_complete_path $argv[2]',
    "    case 'values:*'",
    "      string split ' ' -- (string replace 'values:' '' -- $argv[1])",
    "    case 'id:*'",
    '      # Ids from the running daemon (never started for this); nothing when it is down or slow.',
    "      command -q kairos; and kairos __complete (string replace 'id:' '' -- $argv[1]) $argv[2] 2>/dev/null",
    '  end',
    'end',
    'function __kairos_complete',
    '  set -l words (commandline -opc)',
    '  set -l cur (commandline -ct)',
    "  set -l cmdpath ''",
    '  set -l npos 0',
    '  set -l i 2',
    '  set -l used',
    '  while test $i -le (count $words)',
    '    set -l w $words[$i]',
    '    set i (math $i + 1)',
    "    if string match -q -- '-*' $w",
    '      set -a used (string split -m1 = -- $w)[1]',
    '      # An option that takes a value: skip the value (`--format full`; `--format=full` is one word).',
    '      if not string match -q -- \'*=*\' $w; and test -n "$(__kairos_optval $cmdpath $w)"',
    '        set i (math $i + 1)',
    '      end',
    '      continue',
    '    end',
    '    __kairos_node $cmdpath',
    '    if contains -- $w (string split -f1 \\t -- $__kairos_subs)',
    '      set cmdpath (string trim -- "$cmdpath $w")',
    '    else',
    '      set npos (math $npos + 1)',
    '    end',
    '  end',
    '  set -l prev $words[-1]',
    "  if test (count $words) -gt 1; and string match -q -- '-*' $prev; and not string match -q -- '*=*' $prev",
    '    set -l kind (__kairos_optval $cmdpath $prev)',
    '    if test -n "$kind"',
    '      __kairos_values $kind $cur',
    '      return',
    '    end',
    '  end',
    "  if string match -q -- '-*=*' $cur",
    '    set -l parts (string split -m1 = -- $cur)',
    '    set -l kind (__kairos_optval $cmdpath $parts[1])',
    '    if test -n "$kind"',
    '      for c in (__kairos_values $kind $parts[2])',
    '        echo "$parts[1]=$c"',
    '      end',
    '      return',
    '    end',
    '  end',
    '  __kairos_node $cmdpath',
    "  if string match -q -- '-*' $cur",
    '    # Each option once, but for the repeatable ones (--set).',
    '    for o in $__kairos_opts',
    '      set -l name (string split -f1 \\t -- $o)',
    '      if not contains -- $name $used; or contains -- $name $__kairos_reps',
    '        echo $o',
    '      end',
    '    end',
    '    return',
    '  end',
    '  if set -q __kairos_subs[1]',
    "    printf '%s\\n' $__kairos_subs",
    '    return',
    '  end',
    '  set -l kind',
    '  set -l at (math $npos + 1)',
    '  if test $at -le (count $__kairos_args)',
    '    set kind $__kairos_args[$at]',
    '  else if test -n "$__kairos_variadic"; and set -q __kairos_args[1]',
    '    set kind $__kairos_args[-1]',
    '  end',
    '  test -n "$kind"; and __kairos_values $kind $cur',
    'end',
    'complete -c kairos -f -a "(__kairos_complete)"',
    '',
  ].join('\n');
}
