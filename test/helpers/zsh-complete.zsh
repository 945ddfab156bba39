#!/usr/bin/env zsh
# Prints what zsh's completion system offers for a command line, one candidate per line
# ("word -- description" when it has one), by typing the line and Tab into an interactive zsh in a
# pseudo-terminal (zsh/zpty). Usage: zsh -f zsh-complete.zsh <fpath dir> <line>
# The capture follows Valodim/zsh-capture-completion: compadd is wrapped to print its matches
# between two NUL lines, and the shell exits once completion is done.
zmodload zsh/zpty || exit 3
local setup=${TMPDIR:-/tmp}/zsh-complete-$$.zsh
cat > $setup <<SETUP
PROMPT= RPROMPT=
COLUMNS=250
fpath=(${(q)1} \$fpath)
autoload -Uz compinit; compinit -u -D
zmodload zsh/zutil
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
null-line() { echo -E - \$'\0' }
compprefuncs=(null-line)
comppostfuncs=(null-line exit)
compadd() {
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "\$@"; return \$?; fi
  typeset -a __hits __dscr __tmp
  if (( \$@[(I)-d] )); then
    __tmp=\${@[\$[\${@[(i)-d]}+1]]}
    if [[ \$__tmp == \(* ]]; then eval "__dscr=\$__tmp"; else __dscr=( "\${(@P)__tmp}" ); fi
  fi
  builtin compadd -A __hits -D __dscr "\$@"
  [[ -n \$__hits ]] || return
  local i dscr
  for i in {1..\$#__hits}; do
    (( \$#__dscr >= \$i )) && dscr=" -- \${\${\${__dscr[\$i]}#\$__hits[\$i]}##[[:space:]]#-- }" || dscr=
    echo -E - "\${__hits[\$i]}\$dscr"
  done
}
bindkey '^I' complete-word
bindkey '^M' undefined
bindkey '^J' undefined
echo capture-ready
SETUP
zpty z zsh -f -i
zpty -w z "source ${(q)setup}"
local l
while zpty -r z l; do [[ $l == capture-ready* ]] && break; done
rm -f $setup
zpty -w -n z "$2"$'\t'
integer tog=0
while zpty -r z l; do
  if [[ $l == *$'\0'* ]]; then
    (( tog++ )) && break || continue
  fi
  l=${l%$'\n'}; l=${l%$'\r'}
  (( tog )) && [[ -n $l ]] && print -r -- "$l"
done
zpty -d z
