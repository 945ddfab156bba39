import { type NodeSpec, optvalFunction, repeatable, shq } from './render.js';

/**
 * The bash script: `_kairos_node` knows each command's words, `_kairos_optval` what each option's
 * value completes to; `_kairos` walks the line (skipping options and their values) to the command
 * and the position being completed. Options are offered only once a `-` is typed.
 */
export function bashScript(nodes: NodeSpec[], header: string): string {
  const node = nodes.map((n) => {
    const parts = [`subs=${shq(n.subs.map((s) => s.name).join(' '))}`, `opts=${shq(n.options.flatMap((o) => o.names).join(' '))}`];
    if (n.args.length) parts.push(`args=(${n.args.map(shq).join(' ')})`);
    if (n.variadic) parts.push('variadic=1');
    if (repeatable(n).length) parts.push(`reps=${shq(repeatable(n).join(' '))}`);
    return `    ${shq(n.path.join(' '))}) ${parts.join(' ')} ;;`;
  });
  return [
    header,
    '_kairos_node() {',
    '  subs= opts= args=() variadic= reps=',
    '  case "$1" in',
    ...node,
    '  esac',
    '}',
    ...optvalFunction(nodes),
    '_kairos_values() {',
    "  local IFS=$'\\n' line",
    '  case "$1" in',
    '    file)',
    '      if declare -F _filedir >/dev/null; then _filedir; else',
    '        compopt -o filenames 2>/dev/null',
    '        COMPREPLY=($(compgen -f -- "$cur"))',
    '      fi ;;',
    '    values:*) COMPREPLY=($(IFS=" "; compgen -W "${1#values:}" -- "$cur")) ;;',
    '    id:*)',
    '      # Ids from the running daemon (never started for this); nothing when it is down or slow.',
    '      COMPREPLY=()',
    '      # An id already on the line (`approve pl_a pl_b`) is not offered again.',
    '      while IFS= read -r line; do',
    "        line=${line%%$'\\t'*}",
    '        [[ $given == *" $line "* ]] || COMPREPLY+=("$line")',
    '      done < <(kairos __complete "${1#id:}" "$cur" 2>/dev/null) ;;',
    '    *) COMPREPLY=() ;;',
    '  esac',
    '}',
    '_kairos() {',
    '  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmdpath= npos=0 i w o kind REPLY subs opts args variadic reps used= keep= given=',
    '  for ((i = 1; i < COMP_CWORD; i++)); do',
    '    w=${COMP_WORDS[i]}',
    '    if [[ $w == -* ]]; then',
    '      used+=" $w "',
    '      _kairos_optval "$cmdpath" "$w"',
    '      # An option that takes a value: skip the value (`--format full` or `--format=full`).',
    '      if [[ -n $REPLY ]]; then ((i++)); [[ ${COMP_WORDS[i]} == = ]] && ((i++)); fi',
    '      continue',
    '    fi',
    '    _kairos_node "$cmdpath"',
    '    if [[ -n $subs && " $subs " == *" $w "* ]]; then cmdpath=${cmdpath:+$cmdpath }$w; else ((npos++)); given+=" $w "; fi',
    '  done',
    '  # `--format=<Tab>`: bash splits the word at the =.',
    '  if [[ $cur == = ]]; then cur=; elif [[ $prev == = ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi',
    '  if [[ $prev == -* ]]; then',
    '    _kairos_optval "$cmdpath" "$prev"',
    '    if [[ -n $REPLY ]]; then _kairos_values "$REPLY"; return; fi',
    '  fi',
    '  _kairos_node "$cmdpath"',
    '  if [[ $cur == -* ]]; then',
    '    # Each option once, but for the repeatable ones (--set).',
    '    for o in $opts; do [[ $used == *" $o "* && " $reps " != *" $o "* ]] || keep+=" $o"; done',
    '    COMPREPLY=($(compgen -W "$keep" -- "$cur"))',
    '    return',
    '  fi',
    '  if [[ -n $subs ]]; then COMPREPLY=($(compgen -W "$subs" -- "$cur")); return; fi',
    '  kind=${args[npos]}',
    '  [[ -z $kind && -n $variadic ]] && kind=${args[${#args[@]}-1]}',
    '  _kairos_values "$kind"',
    '}',
    'complete -F _kairos kairos',
    '',
  ].join('\n');
}
