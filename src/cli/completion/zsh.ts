import { type NodeSpec, optvalFunction, repeatable, shq } from './render.js';

/** `name:description` for _describe (a colon in the name is escaped). */
const described = (name: string, description: string) => shq(`${name.replace(/:/g, '\\:')}:${description}`);

/**
 * The zsh script: the same walk as bash's over the same tables, with descriptions shown by
 * _describe, files by _files and ids from the daemon with their few words.
 */
export function zshScript(nodes: NodeSpec[], header: string): string {
  const node = nodes.map((n) => {
    const parts = [
      `subs=(${n.subs.map((s) => described(s.name, s.description)).join(' ')})`,
      `opts=(${n.options.flatMap((o) => o.names.map((name) => described(name, o.description))).join(' ')})`,
    ];
    if (n.args.length) parts.push(`args=(${n.args.map(shq).join(' ')})`);
    if (n.variadic) parts.push('variadic=1');
    if (repeatable(n).length) parts.push(`reps=(${repeatable(n).map(shq).join(' ')})`);
    return `    ${shq(n.path.join(' '))}) ${parts.join(' ')} ;;`;
  });
  return [
    '#compdef kairos',
    header,
    '_kairos_node() {',
    '  subs=() opts=() args=() reps=() variadic=',
    '  case "$1" in',
    ...node,
    '  esac',
    '}',
    ...optvalFunction(nodes),
    '_kairos_values() {',
    '  local -a found',
    '  local line',
    '  case "$1" in',
    '    file) _files ;;',
    '    values:*) found=(${=${1#values:}}); compadd -a found ;;',
    '    id:*)',
    '      # Ids from the running daemon (never started for this); nothing when it is down or slow.',
    '      for line in ${(f)"$(kairos __complete ${1#id:} "$PREFIX" 2>/dev/null)"}; do',
    "        (( ${given[(Ie)${line%%$'\\t'*}]} )) && continue  # already on the line",
    "        found+=(\"${${line%%$'\\t'*}//:/\\\\:}:${line#*$'\\t'}\")",
    '      done',
    '      (( $#found )) && _describe -t ids "${1#id:} id" found -U ;;',
    '  esac',
    '}',
    '_kairos() {',
    '  local cmdpath= w kind REPLY variadic prev=${words[CURRENT-1]}',
    '  local -a subs opts args reps used keep given',
    '  integer i npos=0',
    '  for ((i = 2; i < CURRENT; i++)); do',
    '    w=${words[i]}',
    '    if [[ $w == -* ]]; then',
    '      used+=(${w%%=*})',
    '      # An option that takes a value: skip the value (`--format full`; `--format=full` is one word).',
    '      [[ $w != *=* ]] && _kairos_optval "$cmdpath" "$w" && [[ -n $REPLY ]] && ((i++))',
    '      continue',
    '    fi',
    '    _kairos_node "$cmdpath"',
    '    if (( ${subs[(I)${(b)w}:*]} )); then cmdpath=${cmdpath:+$cmdpath }$w; else ((npos++)); given+=($w); fi',
    '  done',
    '  if [[ $prev == -* && $prev != *=* ]]; then',
    '    _kairos_optval "$cmdpath" "$prev"',
    '    if [[ -n $REPLY ]]; then _kairos_values "$REPLY"; return; fi',
    '  fi',
    '  if [[ $PREFIX == -*=* ]]; then',
    '    _kairos_optval "$cmdpath" "${PREFIX%%=*}"',
    '    if [[ -n $REPLY ]]; then compset -P \'*=\'; _kairos_values "$REPLY"; return; fi',
    '  fi',
    '  _kairos_node "$cmdpath"',
    '  if [[ $PREFIX == -* ]]; then',
    '    # Each option once, but for the repeatable ones (--set).',
    '    for w in $opts; do (( ${used[(Ie)${w%%:*}]} && ! ${reps[(Ie)${w%%:*}]} )) || keep+=($w); done',
    '    _describe -t options option keep',
    '    return',
    '  fi',
    '  if (( $#subs )); then _describe -t commands command subs; return; fi',
    '  kind=${args[npos+1]}',
    '  [[ -z $kind && -n $variadic ]] && kind=${args[-1]}',
    '  [[ -n $kind ]] && _kairos_values "$kind"',
    '}',
    '# Autoloaded from $fpath, this file is the completion function; sourced, it registers one.',
    'if [[ ${funcstack[1]} == _kairos ]]; then _kairos "$@"; else compdef _kairos kairos; fi',
    '',
  ].join('\n');
}
