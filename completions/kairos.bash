# Generated from the kairos command tree by `npm run completions`; do not edit.
_kairos() {
  local -a line=("${COMP_WORDS[@]}")
  local cword=$COMP_CWORD
  local cur path w words cand
  path=""
  for ((i=1; i<cword; i++)); do
    w="${line[i]}"
    [[ "$w" == -* ]] && continue
    cand="${path:+$path }$w"
    case "$cand" in
      "chat"|"plan"|"queue"|"review"|"approve"|"reject"|"execute"|"feedback"|"status"|"watch"|"trace"|"cal"|"tempo"|"keys"|"mcp"|"user"|"export"|"daemon"|"config"|"completion"|"trace push"|"trace pull"|"trace show"|"trace edit"|"trace history"|"trace search"|"cal add"|"cal list"|"cal week"|"cal month"|"cal edit"|"cal rm"|"cal import"|"cal export"|"cal subscribe-url"|"cal subscribe"|"cal subscriptions"|"cal refresh"|"cal unsubscribe"|"cal sync"|"cal oauth"|"cal sync add"|"cal sync list"|"cal sync run"|"cal sync remove"|"cal oauth add"|"cal oauth login"|"cal oauth list"|"cal oauth check"|"cal oauth remove"|"tempo tags"|"tempo profile"|"tempo set"|"tempo map"|"tempo block"|"tempo unblock"|"tempo budget"|"tempo cadence"|"keys create"|"keys list"|"keys rotate"|"keys revoke"|"user profile"|"user update"|"user passwd"|"user login"|"daemon run"|"daemon start"|"daemon stop"|"daemon restart"|"daemon status"|"daemon logs"|"config list"|"config get"|"config set"|"config unset") path="$cand" ;;
    esac
  done
  case "$path" in
    "") words="chat plan queue review approve reject execute feedback status watch trace cal tempo keys mcp user export daemon config completion -V --version --json --url --api-key --no-color -q --quiet --no-autostart --help" ;;
    "chat") words="--task -y --yes --no-execute --help" ;;
    "plan") words="--preview --task -y --yes --no-execute --help" ;;
    "queue") words="-s --status --task -v --verbose --help" ;;
    "review") words="--task --help" ;;
    "approve") words="--no-execute --help" ;;
    "reject") words="-r --reason --help" ;;
    "execute") words="--simulate --help" ;;
    "feedback") words="-r --rating -c --comment --duration --action --revision --help" ;;
    "status") words="--help" ;;
    "watch") words="-t --topics -n --count --help" ;;
    "trace") words="push pull show edit history search --help" ;;
    "trace push") words="--help" ;;
    "trace pull") words="--task --tag --type --since --until --limit --cursor --all --include-expired --user --help" ;;
    "trace show") words="--help" ;;
    "trace edit") words="--set --expected-version --help" ;;
    "trace history") words="--help" ;;
    "trace search") words="--mode --type --tag --task --limit --include-expired --help" ;;
    "cal") words="add list week month edit rm import export subscribe-url subscribe subscriptions refresh unsubscribe sync oauth --help" ;;
    "cal add") words="--at --for --tag --tz --task --repeat --all-day --where --note --help" ;;
    "cal list") words="--from --to --tag --help" ;;
    "cal week") words="--week-start --help" ;;
    "cal month") words="--week-start --help" ;;
    "cal edit") words="--set --at --for --title --occurrence --expected-version --help" ;;
    "cal rm") words="--occurrence -y --yes --help" ;;
    "cal import") words="--help" ;;
    "cal export") words="--from --to --tag -o --output --help" ;;
    "cal subscribe-url") words="--name --help" ;;
    "cal subscribe") words="--name --every --help" ;;
    "cal subscriptions") words="--help" ;;
    "cal refresh") words="--help" ;;
    "cal unsubscribe") words="-y --yes --help" ;;
    "cal sync") words="add list run remove --help" ;;
    "cal sync add") words="--collection --user --password-stdin --oauth --help" ;;
    "cal sync list") words="--help" ;;
    "cal sync run") words="--help" ;;
    "cal sync remove") words="-y --yes --help" ;;
    "cal oauth") words="add login list check remove --help" ;;
    "cal oauth add") words="--issuer --client-id --client-secret-stdin --scope --authorization-endpoint --token-endpoint --device-endpoint --revocation-endpoint --device --no-browser --help" ;;
    "cal oauth login") words="--device --no-browser --help" ;;
    "cal oauth list") words="--help" ;;
    "cal oauth check") words="--refresh --help" ;;
    "cal oauth remove") words="-y --yes --help" ;;
    "tempo") words="tags profile set map block unblock budget cadence --help" ;;
    "tempo tags") words="--user --help" ;;
    "tempo profile") words="--user --help" ;;
    "tempo set") words="--days --help" ;;
    "tempo map") words="--help" ;;
    "tempo block") words="--days --label --for --help" ;;
    "tempo unblock") words="--help" ;;
    "tempo budget") words="--per-day --per-week --agent --help" ;;
    "tempo cadence") words="--per-event --help" ;;
    "keys") words="create list rotate revoke --help" ;;
    "keys create") words="-s --scopes --agent --ttl --mcp-config --help" ;;
    "keys list") words="--help" ;;
    "keys rotate") words="--help" ;;
    "keys revoke") words="-y --yes --help" ;;
    "mcp") words="--agent --help" ;;
    "user") words="profile update passwd login --help" ;;
    "user profile") words="--help" ;;
    "user update") words="--name --email --tz --set --current --password-stdin --help" ;;
    "user passwd") words="--email --password-stdin --current --help" ;;
    "user login") words="--email --password-stdin --help" ;;
    "export") words="--format --from --to --tag --task --type --group-by --max-tokens --include-feedback --include-expired --since --until --since-checkpoint --until-checkpoint --checkpoint --list-checkpoints --limit --cursor --all --user -o --output --help" ;;
    "daemon") words="run start stop restart status logs --help" ;;
    "daemon run") words="--port --host --tls-cert --tls-key --insecure --help" ;;
    "daemon start") words="--port --host --tls-cert --tls-key --insecure --help" ;;
    "daemon stop") words="--help" ;;
    "daemon restart") words="--port --host --tls-cert --tls-key --insecure --help" ;;
    "daemon status") words="--help" ;;
    "daemon logs") words="-f --follow -n --lines --help" ;;
    "config") words="list get set unset --help" ;;
    "config list") words="--help" ;;
    "config get") words="--help" ;;
    "config set") words="--help" ;;
    "config unset") words="--help" ;;
    "completion") words="--help" ;;
    *) words="" ;;
  esac
  cur="${COMP_WORDS[COMP_CWORD]}"
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _kairos kairos
