# Generated from the kairos command tree by `npm run completions`; do not edit.
_kairos_node() {
  subs= opts= args=() variadic= reps=
  case "$1" in
    '') subs='chat plan queue review approve reject execute feedback undo note today open status watch trace cal tempo keys mcp user export daemon config completion' opts='-V --version --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'chat') subs='' opts='--task -y --yes --no-execute --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none') variadic=1 ;;
    'plan') subs='' opts='--preview --task -y --yes --no-execute --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none') variadic=1 ;;
    'queue') subs='' opts='-s --status --task -v --verbose --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'review') subs='' opts='--task --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'approve') subs='' opts='--no-execute --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('id:proposed-plan') variadic=1 ;;
    'reject') subs='' opts='-r --reason --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('id:proposed-plan') ;;
    'execute') subs='' opts='--simulate --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('id:plan-or-task') ;;
    'feedback') subs='' opts='-r --rating -c --comment --duration --action --revision --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('id:plan-or-trace') ;;
    'undo') subs='' opts='--list -y --yes --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none') ;;
    'note') subs='' opts='--task --type --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none') variadic=1 ;;
    'today') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'open') subs='' opts='--print-url --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'status') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'watch') subs='' opts='-t --topics -n --count --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'trace') subs='push pull show edit history search' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'trace push') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('file') ;;
    'trace pull') subs='' opts='--task --tag --type --since --until --limit --cursor --all --space --include-expired --user --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'trace show') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('id:trace') ;;
    'trace edit') subs='' opts='--set --expected-version --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('id:trace') reps='--set' ;;
    'trace history') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('id:trace') ;;
    'trace search') subs='' opts='--mode --type --tag --task --space --since --until --limit --include-expired --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none') variadic=1 ;;
    'cal') subs='add list free week month edit rm rm-many import export subscribe-url subscribe subscriptions refresh unsubscribe sync oauth' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'cal add') subs='' opts='--at --for --tag --tz --task --repeat --all-day --where --note --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none') variadic=1 ;;
    'cal list') subs='' opts='--from --to --tag --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'cal free') subs='' opts='--for --tag --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none') ;;
    'cal week') subs='' opts='--week-start --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none') ;;
    'cal month') subs='' opts='--week-start --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none') ;;
    'cal edit') subs='' opts='--set --at --for --title --occurrence --expected-version --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('id:event') reps='--set' ;;
    'cal rm') subs='' opts='--occurrence -y --yes --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('id:event') ;;
    'cal rm-many') subs='' opts='--import --source -y --yes --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'cal import') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('file') ;;
    'cal export') subs='' opts='--from --to --tag -o --output --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'cal subscribe-url') subs='' opts='--name --new --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'cal subscribe') subs='' opts='--name --every --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none') ;;
    'cal subscriptions') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'cal refresh') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('id:subscription') ;;
    'cal unsubscribe') subs='' opts='-y --yes --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('id:subscription') ;;
    'cal sync') subs='add list run remove' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'cal sync add') subs='' opts='--collection --user --password-stdin --oauth --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none') ;;
    'cal sync list') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'cal sync run') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('id:caldav-account') ;;
    'cal sync remove') subs='' opts='-y --yes --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('id:caldav-account') ;;
    'cal oauth') subs='add login list check remove' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'cal oauth add') subs='' opts='--issuer --client-id --client-secret-stdin --scope --authorization-endpoint --token-endpoint --device-endpoint --revocation-endpoint --allow-host --device --no-browser --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none') reps='--scope --allow-host' ;;
    'cal oauth login') subs='' opts='--device --no-browser --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none') ;;
    'cal oauth list') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'cal oauth check') subs='' opts='--refresh --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none') ;;
    'cal oauth remove') subs='' opts='-y --yes --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none') ;;
    'tempo') subs='tags profile set map block unblock budget cadence' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'tempo tags') subs='' opts='--user --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'tempo profile') subs='' opts='--user --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'tempo set') subs='' opts='--days --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none' 'none') ;;
    'tempo map') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none' 'none') ;;
    'tempo block') subs='' opts='--days --label --for --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none') variadic=1 ;;
    'tempo unblock') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none') variadic=1 ;;
    'tempo budget') subs='' opts='--per-day --per-week --agent --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'tempo cadence') subs='' opts='--per-event --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none' 'none') ;;
    'keys') subs='create list rotate revoke' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'keys create') subs='' opts='-s --scopes --agent --ttl --mcp-config --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('none') ;;
    'keys list') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'keys rotate') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('id:key') ;;
    'keys revoke') subs='' opts='-y --yes --json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('id:key') ;;
    'mcp') subs='' opts='--agent --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'user') subs='profile update passwd login' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'user profile') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'user update') subs='' opts='--name --email --tz --set --current --password-stdin --json --url --api-key --no-color -q --quiet --no-autostart -h --help' reps='--set' ;;
    'user passwd') subs='' opts='--email --password-stdin --current --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'user login') subs='' opts='--email --password-stdin --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'export') subs='' opts='--format --from --to --tag --task --type --group-by --max-tokens --include-feedback --include-expired --since --until --since-checkpoint --until-checkpoint --checkpoint --list-checkpoints --limit --cursor --all --user -o --output --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'daemon') subs='run start stop restart status logs' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'daemon run') subs='' opts='--port --host --tls-cert --tls-key --insecure --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'daemon start') subs='' opts='--port --host --tls-cert --tls-key --insecure --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'daemon stop') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'daemon restart') subs='' opts='--port --host --tls-cert --tls-key --insecure --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'daemon status') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'daemon logs') subs='' opts='-f --follow -n --lines --json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'config') subs='list get set unset' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'config list') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' ;;
    'config get') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('values:port host rate_limit cache_ttl_minutes planner.provider planner.base_url planner.model planner.timeout_ms embeddings.base_url embeddings.model snapshot.every_ops snapshot.every_ms snapshot.backups sync.check_seconds sync.caldav_every_minutes sync.max_subscriptions sync.max_accounts outbound.allow_hosts outbound.max_mib outbound.timeout_seconds') ;;
    'config set') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('values:port host rate_limit cache_ttl_minutes planner.provider planner.base_url planner.model planner.timeout_ms embeddings.base_url embeddings.model snapshot.every_ops snapshot.every_ms snapshot.backups sync.check_seconds sync.caldav_every_minutes sync.max_subscriptions sync.max_accounts outbound.allow_hosts outbound.max_mib outbound.timeout_seconds' 'none') ;;
    'config unset') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('values:port host rate_limit cache_ttl_minutes planner.provider planner.base_url planner.model planner.timeout_ms embeddings.base_url embeddings.model snapshot.every_ops snapshot.every_ms snapshot.backups sync.check_seconds sync.caldav_every_minutes sync.max_subscriptions sync.max_accounts outbound.allow_hosts outbound.max_mib outbound.timeout_seconds') ;;
    'completion') subs='' opts='--json --url --api-key --no-color -q --quiet --no-autostart -h --help' args=('values:bash zsh fish') ;;
  esac
}
_kairos_optval() {
  case "$1|$2" in
    '|--url'|'|--api-key'|'chat|--task'|'chat|--url'|'chat|--api-key'|'plan|--task'|'plan|--url'|'plan|--api-key'|'queue|--task'|'queue|--url'|'queue|--api-key'|'review|--task'|'review|--url'|'review|--api-key'|'approve|--url'|'approve|--api-key'|'reject|-r'|'reject|--reason'|'reject|--url'|'reject|--api-key'|'execute|--url'|'execute|--api-key'|'feedback|-r'|'feedback|--rating'|'feedback|-c'|'feedback|--comment'|'feedback|--duration'|'feedback|--action'|'feedback|--revision'|'feedback|--url'|'feedback|--api-key'|'undo|--url'|'undo|--api-key'|'note|--task'|'note|--type'|'note|--url'|'note|--api-key'|'today|--url'|'today|--api-key'|'open|--url'|'open|--api-key'|'status|--url'|'status|--api-key'|'watch|-t'|'watch|--topics'|'watch|-n'|'watch|--count'|'watch|--url'|'watch|--api-key'|'trace|--url'|'trace|--api-key'|'trace push|--url'|'trace push|--api-key'|'trace pull|--task'|'trace pull|--tag'|'trace pull|--since'|'trace pull|--until'|'trace pull|--limit'|'trace pull|--cursor'|'trace pull|--space'|'trace pull|--user'|'trace pull|--url'|'trace pull|--api-key'|'trace show|--url'|'trace show|--api-key'|'trace edit|--set'|'trace edit|--expected-version'|'trace edit|--url'|'trace edit|--api-key'|'trace history|--url'|'trace history|--api-key'|'trace search|--tag'|'trace search|--task'|'trace search|--space'|'trace search|--since'|'trace search|--until'|'trace search|--limit'|'trace search|--url'|'trace search|--api-key'|'cal|--url'|'cal|--api-key'|'cal add|--at'|'cal add|--for'|'cal add|--tag'|'cal add|--task'|'cal add|--repeat'|'cal add|--where'|'cal add|--note'|'cal add|--url'|'cal add|--api-key'|'cal list|--from'|'cal list|--to'|'cal list|--tag'|'cal list|--url'|'cal list|--api-key'|'cal free|--for'|'cal free|--tag'|'cal free|--url'|'cal free|--api-key'|'cal week|--url'|'cal week|--api-key'|'cal month|--url'|'cal month|--api-key'|'cal edit|--set'|'cal edit|--at'|'cal edit|--for'|'cal edit|--title'|'cal edit|--occurrence'|'cal edit|--expected-version'|'cal edit|--url'|'cal edit|--api-key'|'cal rm|--occurrence'|'cal rm|--url'|'cal rm|--api-key'|'cal rm-many|--import'|'cal rm-many|--source'|'cal rm-many|--url'|'cal rm-many|--api-key'|'cal import|--url'|'cal import|--api-key'|'cal export|--from'|'cal export|--to'|'cal export|--tag'|'cal export|--url'|'cal export|--api-key'|'cal subscribe-url|--name'|'cal subscribe-url|--url'|'cal subscribe-url|--api-key'|'cal subscribe|--name'|'cal subscribe|--every'|'cal subscribe|--url'|'cal subscribe|--api-key'|'cal subscriptions|--url'|'cal subscriptions|--api-key'|'cal refresh|--url'|'cal refresh|--api-key'|'cal unsubscribe|--url'|'cal unsubscribe|--api-key'|'cal sync|--url'|'cal sync|--api-key'|'cal sync add|--collection'|'cal sync add|--user'|'cal sync add|--oauth'|'cal sync add|--url'|'cal sync add|--api-key'|'cal sync list|--url'|'cal sync list|--api-key'|'cal sync run|--url'|'cal sync run|--api-key'|'cal sync remove|--url'|'cal sync remove|--api-key'|'cal oauth|--url'|'cal oauth|--api-key'|'cal oauth add|--issuer'|'cal oauth add|--client-id'|'cal oauth add|--scope'|'cal oauth add|--authorization-endpoint'|'cal oauth add|--token-endpoint'|'cal oauth add|--device-endpoint'|'cal oauth add|--revocation-endpoint'|'cal oauth add|--allow-host'|'cal oauth add|--url'|'cal oauth add|--api-key'|'cal oauth login|--url'|'cal oauth login|--api-key'|'cal oauth list|--url'|'cal oauth list|--api-key'|'cal oauth check|--url'|'cal oauth check|--api-key'|'cal oauth remove|--url'|'cal oauth remove|--api-key'|'tempo|--url'|'tempo|--api-key'|'tempo tags|--user'|'tempo tags|--url'|'tempo tags|--api-key'|'tempo profile|--user'|'tempo profile|--url'|'tempo profile|--api-key'|'tempo set|--days'|'tempo set|--url'|'tempo set|--api-key'|'tempo map|--url'|'tempo map|--api-key'|'tempo block|--days'|'tempo block|--label'|'tempo block|--for'|'tempo block|--url'|'tempo block|--api-key'|'tempo unblock|--url'|'tempo unblock|--api-key'|'tempo budget|--per-day'|'tempo budget|--per-week'|'tempo budget|--agent'|'tempo budget|--url'|'tempo budget|--api-key'|'tempo cadence|--url'|'tempo cadence|--api-key'|'keys|--url'|'keys|--api-key'|'keys create|-s'|'keys create|--scopes'|'keys create|--agent'|'keys create|--ttl'|'keys create|--url'|'keys create|--api-key'|'keys list|--url'|'keys list|--api-key'|'keys rotate|--url'|'keys rotate|--api-key'|'keys revoke|--url'|'keys revoke|--api-key'|'mcp|--agent'|'mcp|--url'|'mcp|--api-key'|'user|--url'|'user|--api-key'|'user profile|--url'|'user profile|--api-key'|'user update|--name'|'user update|--email'|'user update|--set'|'user update|--url'|'user update|--api-key'|'user passwd|--email'|'user passwd|--url'|'user passwd|--api-key'|'user login|--email'|'user login|--url'|'user login|--api-key'|'export|--from'|'export|--to'|'export|--tag'|'export|--task'|'export|--max-tokens'|'export|--since'|'export|--until'|'export|--since-checkpoint'|'export|--until-checkpoint'|'export|--checkpoint'|'export|--limit'|'export|--cursor'|'export|--user'|'export|--url'|'export|--api-key'|'daemon|--url'|'daemon|--api-key'|'daemon run|--port'|'daemon run|--host'|'daemon run|--url'|'daemon run|--api-key'|'daemon start|--port'|'daemon start|--host'|'daemon start|--url'|'daemon start|--api-key'|'daemon stop|--url'|'daemon stop|--api-key'|'daemon restart|--port'|'daemon restart|--host'|'daemon restart|--url'|'daemon restart|--api-key'|'daemon status|--url'|'daemon status|--api-key'|'daemon logs|-n'|'daemon logs|--lines'|'daemon logs|--url'|'daemon logs|--api-key'|'config|--url'|'config|--api-key'|'config list|--url'|'config list|--api-key'|'config get|--url'|'config get|--api-key'|'config set|--url'|'config set|--api-key'|'config unset|--url'|'config unset|--api-key'|'completion|--url'|'completion|--api-key') REPLY='none' ;;
    'queue|-s'|'queue|--status') REPLY='values:proposed approved executed rejected edited all' ;;
    'trace pull|--type'|'trace search|--type'|'export|--type') REPLY='values:goal observation reflection agent_plan calendar_event transition' ;;
    'trace search|--mode') REPLY='values:keyword semantic hybrid' ;;
    'cal add|--tz'|'user update|--tz') REPLY='values:Africa/Abidjan Africa/Accra Africa/Addis_Ababa Africa/Algiers Africa/Asmera Africa/Bamako Africa/Bangui Africa/Banjul Africa/Bissau Africa/Blantyre Africa/Brazzaville Africa/Bujumbura Africa/Cairo Africa/Casablanca Africa/Ceuta Africa/Conakry Africa/Dakar Africa/Dar_es_Salaam Africa/Djibouti Africa/Douala Africa/El_Aaiun Africa/Freetown Africa/Gaborone Africa/Harare Africa/Johannesburg Africa/Juba Africa/Kampala Africa/Khartoum Africa/Kigali Africa/Kinshasa Africa/Lagos Africa/Libreville Africa/Lome Africa/Luanda Africa/Lubumbashi Africa/Lusaka Africa/Malabo Africa/Maputo Africa/Maseru Africa/Mbabane Africa/Mogadishu Africa/Monrovia Africa/Nairobi Africa/Ndjamena Africa/Niamey Africa/Nouakchott Africa/Ouagadougou Africa/Porto-Novo Africa/Sao_Tome Africa/Tripoli Africa/Tunis Africa/Windhoek America/Adak America/Anchorage America/Anguilla America/Antigua America/Araguaina America/Argentina/La_Rioja America/Argentina/Rio_Gallegos America/Argentina/Salta America/Argentina/San_Juan America/Argentina/San_Luis America/Argentina/Tucuman America/Argentina/Ushuaia America/Aruba America/Asuncion America/Bahia America/Bahia_Banderas America/Barbados America/Belem America/Belize America/Blanc-Sablon America/Boa_Vista America/Bogota America/Boise America/Buenos_Aires America/Cambridge_Bay America/Campo_Grande America/Cancun America/Caracas America/Catamarca America/Cayenne America/Cayman America/Chicago America/Chihuahua America/Ciudad_Juarez America/Coral_Harbour America/Cordoba America/Costa_Rica America/Coyhaique America/Creston America/Cuiaba America/Curacao America/Danmarkshavn America/Dawson America/Dawson_Creek America/Denver America/Detroit America/Dominica America/Edmonton America/Eirunepe America/El_Salvador America/Fort_Nelson America/Fortaleza America/Glace_Bay America/Godthab America/Goose_Bay America/Grand_Turk America/Grenada America/Guadeloupe America/Guatemala America/Guayaquil America/Guyana America/Halifax America/Havana America/Hermosillo America/Indiana/Knox America/Indiana/Marengo America/Indiana/Petersburg America/Indiana/Tell_City America/Indiana/Vevay America/Indiana/Vincennes America/Indiana/Winamac America/Indianapolis America/Inuvik America/Iqaluit America/Jamaica America/Jujuy America/Juneau America/Kentucky/Monticello America/Kralendijk America/La_Paz America/Lima America/Los_Angeles America/Louisville America/Lower_Princes America/Maceio America/Managua America/Manaus America/Marigot America/Martinique America/Matamoros America/Mazatlan America/Mendoza America/Menominee America/Merida America/Metlakatla America/Mexico_City America/Miquelon America/Moncton America/Monterrey America/Montevideo America/Montserrat America/Nassau America/New_York America/Nome America/Noronha America/North_Dakota/Beulah America/North_Dakota/Center America/North_Dakota/New_Salem America/Ojinaga America/Panama America/Paramaribo America/Phoenix America/Port-au-Prince America/Port_of_Spain America/Porto_Velho America/Puerto_Rico America/Punta_Arenas America/Rankin_Inlet America/Recife America/Regina America/Resolute America/Rio_Branco America/Santarem America/Santiago America/Santo_Domingo America/Sao_Paulo America/Scoresbysund America/Sitka America/St_Barthelemy America/St_Johns America/St_Kitts America/St_Lucia America/St_Thomas America/St_Vincent America/Swift_Current America/Tegucigalpa America/Thule America/Tijuana America/Toronto America/Tortola America/Vancouver America/Whitehorse America/Winnipeg America/Yakutat Antarctica/Casey Antarctica/Davis Antarctica/DumontDUrville Antarctica/Macquarie Antarctica/Mawson Antarctica/McMurdo Antarctica/Palmer Antarctica/Rothera Antarctica/Syowa Antarctica/Troll Antarctica/Vostok Arctic/Longyearbyen Asia/Aden Asia/Almaty Asia/Amman Asia/Anadyr Asia/Aqtau Asia/Aqtobe Asia/Ashgabat Asia/Atyrau Asia/Baghdad Asia/Bahrain Asia/Baku Asia/Bangkok Asia/Barnaul Asia/Beirut Asia/Bishkek Asia/Brunei Asia/Calcutta Asia/Chita Asia/Colombo Asia/Damascus Asia/Dhaka Asia/Dili Asia/Dubai Asia/Dushanbe Asia/Famagusta Asia/Gaza Asia/Hebron Asia/Hong_Kong Asia/Hovd Asia/Irkutsk Asia/Jakarta Asia/Jayapura Asia/Jerusalem Asia/Kabul Asia/Kamchatka Asia/Karachi Asia/Katmandu Asia/Khandyga Asia/Krasnoyarsk Asia/Kuala_Lumpur Asia/Kuching Asia/Kuwait Asia/Macau Asia/Magadan Asia/Makassar Asia/Manila Asia/Muscat Asia/Nicosia Asia/Novokuznetsk Asia/Novosibirsk Asia/Omsk Asia/Oral Asia/Phnom_Penh Asia/Pontianak Asia/Pyongyang Asia/Qatar Asia/Qostanay Asia/Qyzylorda Asia/Rangoon Asia/Riyadh Asia/Saigon Asia/Sakhalin Asia/Samarkand Asia/Seoul Asia/Shanghai Asia/Singapore Asia/Srednekolymsk Asia/Taipei Asia/Tashkent Asia/Tbilisi Asia/Tehran Asia/Thimphu Asia/Tokyo Asia/Tomsk Asia/Ulaanbaatar Asia/Urumqi Asia/Ust-Nera Asia/Vientiane Asia/Vladivostok Asia/Yakutsk Asia/Yekaterinburg Asia/Yerevan Atlantic/Azores Atlantic/Bermuda Atlantic/Canary Atlantic/Cape_Verde Atlantic/Faeroe Atlantic/Madeira Atlantic/Reykjavik Atlantic/South_Georgia Atlantic/St_Helena Atlantic/Stanley Australia/Adelaide Australia/Brisbane Australia/Broken_Hill Australia/Darwin Australia/Eucla Australia/Hobart Australia/Lindeman Australia/Lord_Howe Australia/Melbourne Australia/Perth Australia/Sydney Europe/Amsterdam Europe/Andorra Europe/Astrakhan Europe/Athens Europe/Belgrade Europe/Berlin Europe/Bratislava Europe/Brussels Europe/Bucharest Europe/Budapest Europe/Busingen Europe/Chisinau Europe/Copenhagen Europe/Dublin Europe/Gibraltar Europe/Guernsey Europe/Helsinki Europe/Isle_of_Man Europe/Istanbul Europe/Jersey Europe/Kaliningrad Europe/Kiev Europe/Kirov Europe/Lisbon Europe/Ljubljana Europe/London Europe/Luxembourg Europe/Madrid Europe/Malta Europe/Mariehamn Europe/Minsk Europe/Monaco Europe/Moscow Europe/Oslo Europe/Paris Europe/Podgorica Europe/Prague Europe/Riga Europe/Rome Europe/Samara Europe/San_Marino Europe/Sarajevo Europe/Saratov Europe/Simferopol Europe/Skopje Europe/Sofia Europe/Stockholm Europe/Tallinn Europe/Tirane Europe/Ulyanovsk Europe/Vaduz Europe/Vatican Europe/Vienna Europe/Vilnius Europe/Volgograd Europe/Warsaw Europe/Zagreb Europe/Zurich Indian/Antananarivo Indian/Chagos Indian/Christmas Indian/Cocos Indian/Comoro Indian/Kerguelen Indian/Mahe Indian/Maldives Indian/Mauritius Indian/Mayotte Indian/Reunion Pacific/Apia Pacific/Auckland Pacific/Bougainville Pacific/Chatham Pacific/Easter Pacific/Efate Pacific/Enderbury Pacific/Fakaofo Pacific/Fiji Pacific/Funafuti Pacific/Galapagos Pacific/Gambier Pacific/Guadalcanal Pacific/Guam Pacific/Honolulu Pacific/Kiritimati Pacific/Kosrae Pacific/Kwajalein Pacific/Majuro Pacific/Marquesas Pacific/Midway Pacific/Nauru Pacific/Niue Pacific/Norfolk Pacific/Noumea Pacific/Pago_Pago Pacific/Palau Pacific/Pitcairn Pacific/Ponape Pacific/Port_Moresby Pacific/Rarotonga Pacific/Saipan Pacific/Tahiti Pacific/Tarawa Pacific/Tongatapu Pacific/Truk Pacific/Wake Pacific/Wallis' ;;
    'cal week|--week-start'|'cal month|--week-start') REPLY='values:monday sunday' ;;
    'cal export|-o'|'cal export|--output'|'export|-o'|'export|--output'|'daemon run|--tls-cert'|'daemon run|--tls-key'|'daemon start|--tls-cert'|'daemon start|--tls-key'|'daemon restart|--tls-cert'|'daemon restart|--tls-key') REPLY='file' ;;
    'keys create|--mcp-config') REPLY='values:claude cursor vscode generic' ;;
    'export|--format') REPLY='values:summary full linked diff' ;;
    'export|--group-by') REPLY='values:day task trace_type' ;;
    *) REPLY= ;;
  esac
}
_kairos_values() {
  local IFS=$'\n' line
  case "$1" in
    file)
      if declare -F _filedir >/dev/null; then _filedir; else
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -- "$cur"))
      fi ;;
    values:*) COMPREPLY=($(IFS=" "; compgen -W "${1#values:}" -- "$cur")) ;;
    id:*)
      # Ids from the running daemon (never started for this); nothing when it is down or slow.
      COMPREPLY=()
      # An id already on the line (`approve pl_a pl_b`) is not offered again.
      while IFS= read -r line; do
        line=${line%%$'\t'*}
        [[ $given == *" $line "* ]] || COMPREPLY+=("$line")
      done < <(kairos __complete "${1#id:}" "$cur" 2>/dev/null) ;;
    *) COMPREPLY=() ;;
  esac
}
_kairos() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmdpath= npos=0 i w o kind REPLY subs opts args variadic reps used= keep= given=
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    if [[ $w == -* ]]; then
      used+=" $w "
      _kairos_optval "$cmdpath" "$w"
      # An option that takes a value: skip the value (`--format full` or `--format=full`).
      if [[ -n $REPLY ]]; then ((i++)); [[ ${COMP_WORDS[i]} == = ]] && ((i++)); fi
      continue
    fi
    _kairos_node "$cmdpath"
    if [[ -n $subs && " $subs " == *" $w "* ]]; then cmdpath=${cmdpath:+$cmdpath }$w; else ((npos++)); given+=" $w "; fi
  done
  # `--format=<Tab>`: bash splits the word at the =.
  if [[ $cur == = ]]; then cur=; elif [[ $prev == = ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi
  if [[ $prev == -* ]]; then
    _kairos_optval "$cmdpath" "$prev"
    if [[ -n $REPLY ]]; then _kairos_values "$REPLY"; return; fi
  fi
  _kairos_node "$cmdpath"
  if [[ $cur == -* ]]; then
    # Each option once, but for the repeatable ones (--set).
    for o in $opts; do [[ $used == *" $o "* && " $reps " != *" $o "* ]] || keep+=" $o"; done
    COMPREPLY=($(compgen -W "$keep" -- "$cur"))
    return
  fi
  if [[ -n $subs ]]; then COMPREPLY=($(compgen -W "$subs" -- "$cur")); return; fi
  kind=${args[npos]}
  [[ -z $kind && -n $variadic ]] && kind=${args[${#args[@]}-1]}
  _kairos_values "$kind"
}
complete -F _kairos kairos
