# Generated from the kairos command tree by `npm run completions`; do not edit.
function __kairos_path_is
    set -l words (commandline -opc)
    set -e words[1]
    set -l path
    for w in $words
        string match -q -- '-*' $w; and continue
        set path $path $w
    end
    test "$path" = "$argv"
end
complete -c kairos -f
complete -c kairos -n '__fish_use_subcommand' -a chat -d 'talk to kairos: a scheduling request becomes a plan, a note proposed traces, a question an answer from memory'
complete -c kairos -n '__fish_use_subcommand' -a plan -d 'plan from plain English: propose actions with the reason for each time (on a terminal: approve, edit or reject at once)'
complete -c kairos -n '__fish_use_subcommand' -a queue -d 'list agent plans awaiting review (or in another status), one line per action'
complete -c kairos -n '__fish_use_subcommand' -a review -d 'step through proposed plans: approve (and execute), edit an action, reject with a reason, skip, quit'
complete -c kairos -n '__fish_use_subcommand' -a approve -d 'approve proposed plans and execute them (approval and execution commit together)'
complete -c kairos -n '__fish_use_subcommand' -a reject -d 'reject a proposed plan (the reason is remembered)'
complete -c kairos -n '__fish_use_subcommand' -a execute -d 'execute an approved plan, or every approved plan of a task, all or nothing'
complete -c kairos -n '__fish_use_subcommand' -a feedback -d 'rate or correct a plan or a trace; logged, and durations teach the tempo profile'
complete -c kairos -n '__fish_use_subcommand' -a status -d 'daemon, plan queue, planner and store at a glance'
complete -c kairos -n '__fish_use_subcommand' -a watch -d 'print live changes to plans, traces and events as they happen (Ctrl-C stops)'
complete -c kairos -n '__fish_use_subcommand' -a trace -d 'push, pull, show, edit and search memory traces'
complete -c kairos -n '__fish_use_subcommand' -a cal -d 'calendar: add, list, edit and remove events; import, export and subscribe (.ics)'
complete -c kairos -n '__fish_use_subcommand' -a tempo -d 'when things should happen, and what agents may never do: tags, time ranges, blocked time, cadence, budgets'
complete -c kairos -n '__fish_use_subcommand' -a keys -d 'create, list, rotate and revoke API keys'
complete -c kairos -n '__fish_use_subcommand' -a mcp -d 'serve kairos to an AI agent over MCP on stdio (stdout carries only protocol messages)'
complete -c kairos -n '__fish_use_subcommand' -a user -d 'your profile, password and login tokens'
complete -c kairos -n '__fish_use_subcommand' -a export -d 'export memory context for a language model: summary, full, linked or diff (JSON with --json or -o)'
complete -c kairos -n '__fish_use_subcommand' -a daemon -d 'run and manage the background daemon'
complete -c kairos -n '__fish_use_subcommand' -a config -d 'read and change the daemon\'s settings (config.json in the home folder)'
complete -c kairos -n '__fish_use_subcommand' -a completion -d 'print the shell completion script'
complete -c kairos -n '__fish_use_subcommand' -l version
complete -c kairos -n '__fish_use_subcommand' -l json
complete -c kairos -n '__fish_use_subcommand' -l url
complete -c kairos -n '__fish_use_subcommand' -l api-key
complete -c kairos -n '__fish_use_subcommand' -l no-color
complete -c kairos -n '__fish_use_subcommand' -l quiet
complete -c kairos -n '__fish_use_subcommand' -l no-autostart
complete -c kairos -n '__fish_use_subcommand' -l help
complete -c kairos -n '__kairos_path_is chat' -l task
complete -c kairos -n '__kairos_path_is chat' -l yes
complete -c kairos -n '__kairos_path_is chat' -l no-execute
complete -c kairos -n '__kairos_path_is chat' -l help
complete -c kairos -n '__kairos_path_is plan' -l preview
complete -c kairos -n '__kairos_path_is plan' -l task
complete -c kairos -n '__kairos_path_is plan' -l yes
complete -c kairos -n '__kairos_path_is plan' -l no-execute
complete -c kairos -n '__kairos_path_is plan' -l help
complete -c kairos -n '__kairos_path_is queue' -l status
complete -c kairos -n '__kairos_path_is queue' -l task
complete -c kairos -n '__kairos_path_is queue' -l verbose
complete -c kairos -n '__kairos_path_is queue' -l help
complete -c kairos -n '__kairos_path_is review' -l task
complete -c kairos -n '__kairos_path_is review' -l help
complete -c kairos -n '__kairos_path_is approve' -l no-execute
complete -c kairos -n '__kairos_path_is approve' -l help
complete -c kairos -n '__kairos_path_is reject' -l reason
complete -c kairos -n '__kairos_path_is reject' -l help
complete -c kairos -n '__kairos_path_is execute' -l simulate
complete -c kairos -n '__kairos_path_is execute' -l help
complete -c kairos -n '__kairos_path_is feedback' -l rating
complete -c kairos -n '__kairos_path_is feedback' -l comment
complete -c kairos -n '__kairos_path_is feedback' -l duration
complete -c kairos -n '__kairos_path_is feedback' -l action
complete -c kairos -n '__kairos_path_is feedback' -l revision
complete -c kairos -n '__kairos_path_is feedback' -l help
complete -c kairos -n '__kairos_path_is status' -l help
complete -c kairos -n '__kairos_path_is watch' -l topics
complete -c kairos -n '__kairos_path_is watch' -l count
complete -c kairos -n '__kairos_path_is watch' -l help
complete -c kairos -n '__kairos_path_is trace' -a push -d 'save traces from a file or stdin (a JSON array, one object, or NDJSON), all or nothing'
complete -c kairos -n '__kairos_path_is trace' -a pull -d 'list traces, oldest first, filtered by task, tag, type and time'
complete -c kairos -n '__kairos_path_is trace' -a show -d 'print one trace'
complete -c kairos -n '__kairos_path_is trace' -a edit -d 'change a trace; without --set, opens $EDITOR on its JSON (concurrent edits are refused, not lost)'
complete -c kairos -n '__kairos_path_is trace' -a history -d 'every version of a trace with a diff'
complete -c kairos -n '__kairos_path_is trace' -a search -d 'full-text search (stemming, prefixes, typos), best first'
complete -c kairos -n '__kairos_path_is trace' -l help
complete -c kairos -n '__kairos_path_is trace push' -l help
complete -c kairos -n '__kairos_path_is trace pull' -l task
complete -c kairos -n '__kairos_path_is trace pull' -l tag
complete -c kairos -n '__kairos_path_is trace pull' -l type
complete -c kairos -n '__kairos_path_is trace pull' -l since
complete -c kairos -n '__kairos_path_is trace pull' -l until
complete -c kairos -n '__kairos_path_is trace pull' -l limit
complete -c kairos -n '__kairos_path_is trace pull' -l cursor
complete -c kairos -n '__kairos_path_is trace pull' -l all
complete -c kairos -n '__kairos_path_is trace pull' -l include-expired
complete -c kairos -n '__kairos_path_is trace pull' -l user
complete -c kairos -n '__kairos_path_is trace pull' -l help
complete -c kairos -n '__kairos_path_is trace show' -l help
complete -c kairos -n '__kairos_path_is trace edit' -l set
complete -c kairos -n '__kairos_path_is trace edit' -l expected-version
complete -c kairos -n '__kairos_path_is trace edit' -l help
complete -c kairos -n '__kairos_path_is trace history' -l help
complete -c kairos -n '__kairos_path_is trace search' -l mode
complete -c kairos -n '__kairos_path_is trace search' -l type
complete -c kairos -n '__kairos_path_is trace search' -l tag
complete -c kairos -n '__kairos_path_is trace search' -l task
complete -c kairos -n '__kairos_path_is trace search' -l limit
complete -c kairos -n '__kairos_path_is trace search' -l include-expired
complete -c kairos -n '__kairos_path_is trace search' -l help
complete -c kairos -n '__kairos_path_is cal' -a add -d 'add an event (--at takes "tomorrow 3pm", "next friday 9:30" or ISO 8601, in your time zone)'
complete -c kairos -n '__kairos_path_is cal' -a list -d 'an agenda grouped by day, recurring events expanded (JSON with --json)'
complete -c kairos -n '__kairos_path_is cal' -a week -d 'the week as a grid: a column per day, all-day events on top, timed ones by the hour (JSON by day with --json)'
complete -c kairos -n '__kairos_path_is cal' -a month -d 'the month as a grid of weeks, each day with the events that fit (+N more) (JSON by day with --json)'
complete -c kairos -n '__kairos_path_is cal' -a edit -d 'change an event (or one occurrence of a series with --occurrence)'
complete -c kairos -n '__kairos_path_is cal' -a rm -d 'remove an event (asks first, naming it, on a terminal; --yes otherwise)'
complete -c kairos -n '__kairos_path_is cal' -a import -d 'import an .ics file (re-importing changes nothing); prints the report'
complete -c kairos -n '__kairos_path_is cal' -a export -d 'write events as an .ics file (RFC 5545)'
complete -c kairos -n '__kairos_path_is cal' -a subscribe-url -d 'mint a read-only key (calendar:read) and print the feed URL for calendar apps'
complete -c kairos -n '__kairos_path_is cal' -a subscribe -d 'subscribe to a remote .ics feed (http, https, webcal); the daemon refreshes it, its events are read-only'
complete -c kairos -n '__kairos_path_is cal' -a subscriptions -d 'list subscriptions: last refresh, last error, event count'
complete -c kairos -n '__kairos_path_is cal' -a refresh -d 'refresh a subscription now (all of them without an id)'
complete -c kairos -n '__kairos_path_is cal' -a unsubscribe -d 'remove a subscription and its feed\'s events (asks first on a terminal; --yes otherwise)'
complete -c kairos -n '__kairos_path_is cal' -a sync -d 'two-way sync with a CalDAV calendar (Nextcloud, Fastmail, iCloud, Radicale, Baïkal …)'
complete -c kairos -n '__kairos_path_is cal' -a oauth -d 'OAuth 2.0 providers for calendar sync (Google, Fastmail …): authorize, list, check, remove'
complete -c kairos -n '__kairos_path_is cal' -l help
complete -c kairos -n '__kairos_path_is cal add' -l at
complete -c kairos -n '__kairos_path_is cal add' -l for
complete -c kairos -n '__kairos_path_is cal add' -l tag
complete -c kairos -n '__kairos_path_is cal add' -l tz
complete -c kairos -n '__kairos_path_is cal add' -l task
complete -c kairos -n '__kairos_path_is cal add' -l repeat
complete -c kairos -n '__kairos_path_is cal add' -l all-day
complete -c kairos -n '__kairos_path_is cal add' -l where
complete -c kairos -n '__kairos_path_is cal add' -l note
complete -c kairos -n '__kairos_path_is cal add' -l help
complete -c kairos -n '__kairos_path_is cal list' -l from
complete -c kairos -n '__kairos_path_is cal list' -l to
complete -c kairos -n '__kairos_path_is cal list' -l tag
complete -c kairos -n '__kairos_path_is cal list' -l help
complete -c kairos -n '__kairos_path_is cal week' -l week-start
complete -c kairos -n '__kairos_path_is cal week' -l help
complete -c kairos -n '__kairos_path_is cal month' -l week-start
complete -c kairos -n '__kairos_path_is cal month' -l help
complete -c kairos -n '__kairos_path_is cal edit' -l set
complete -c kairos -n '__kairos_path_is cal edit' -l at
complete -c kairos -n '__kairos_path_is cal edit' -l for
complete -c kairos -n '__kairos_path_is cal edit' -l title
complete -c kairos -n '__kairos_path_is cal edit' -l occurrence
complete -c kairos -n '__kairos_path_is cal edit' -l expected-version
complete -c kairos -n '__kairos_path_is cal edit' -l help
complete -c kairos -n '__kairos_path_is cal rm' -l occurrence
complete -c kairos -n '__kairos_path_is cal rm' -l yes
complete -c kairos -n '__kairos_path_is cal rm' -l help
complete -c kairos -n '__kairos_path_is cal import' -l help
complete -c kairos -n '__kairos_path_is cal export' -l from
complete -c kairos -n '__kairos_path_is cal export' -l to
complete -c kairos -n '__kairos_path_is cal export' -l tag
complete -c kairos -n '__kairos_path_is cal export' -l output
complete -c kairos -n '__kairos_path_is cal export' -l help
complete -c kairos -n '__kairos_path_is cal subscribe-url' -l name
complete -c kairos -n '__kairos_path_is cal subscribe-url' -l help
complete -c kairos -n '__kairos_path_is cal subscribe' -l name
complete -c kairos -n '__kairos_path_is cal subscribe' -l every
complete -c kairos -n '__kairos_path_is cal subscribe' -l help
complete -c kairos -n '__kairos_path_is cal subscriptions' -l help
complete -c kairos -n '__kairos_path_is cal refresh' -l help
complete -c kairos -n '__kairos_path_is cal unsubscribe' -l yes
complete -c kairos -n '__kairos_path_is cal unsubscribe' -l help
complete -c kairos -n '__kairos_path_is cal sync' -a add -d 'add a CalDAV collection, signed in with a user and password (kept in the home folder, mode 0600) or an OAuth provider; the credentials are checked first'
complete -c kairos -n '__kairos_path_is cal sync' -a list -d 'accounts: last sync, its counts and last error'
complete -c kairos -n '__kairos_path_is cal sync' -a run -d 'sync now (one account, or all of them); reports counts and conflicts'
complete -c kairos -n '__kairos_path_is cal sync' -a remove -d 'remove an account and its stored password (its events stay in kairos; an OAuth provider stays for other accounts)'
complete -c kairos -n '__kairos_path_is cal sync' -l help
complete -c kairos -n '__kairos_path_is cal sync add' -l collection
complete -c kairos -n '__kairos_path_is cal sync add' -l user
complete -c kairos -n '__kairos_path_is cal sync add' -l password-stdin
complete -c kairos -n '__kairos_path_is cal sync add' -l oauth
complete -c kairos -n '__kairos_path_is cal sync add' -l help
complete -c kairos -n '__kairos_path_is cal sync list' -l help
complete -c kairos -n '__kairos_path_is cal sync run' -l help
complete -c kairos -n '__kairos_path_is cal sync remove' -l yes
complete -c kairos -n '__kairos_path_is cal sync remove' -l help
complete -c kairos -n '__kairos_path_is cal oauth' -a add -d 'add a provider and authorize kairos there (authorization code + PKCE in a browser, or --device)'
complete -c kairos -n '__kairos_path_is cal oauth' -a login -d 'authorize again with a provider\'s stored settings (after the grant was revoked or expired)'
complete -c kairos -n '__kairos_path_is cal oauth' -a list -d 'providers and the state of their grants (never a token or secret)'
complete -c kairos -n '__kairos_path_is cal oauth' -a check -d 'check the grant: refresh the access token if it is due (or with --refresh), without showing it'
complete -c kairos -n '__kairos_path_is cal oauth' -a remove -d 'delete the tokens and client secret of a provider, and ask it to revoke the grant (asks first; --yes otherwise)'
complete -c kairos -n '__kairos_path_is cal oauth' -l help
complete -c kairos -n '__kairos_path_is cal oauth add' -l issuer
complete -c kairos -n '__kairos_path_is cal oauth add' -l client-id
complete -c kairos -n '__kairos_path_is cal oauth add' -l client-secret-stdin
complete -c kairos -n '__kairos_path_is cal oauth add' -l scope
complete -c kairos -n '__kairos_path_is cal oauth add' -l authorization-endpoint
complete -c kairos -n '__kairos_path_is cal oauth add' -l token-endpoint
complete -c kairos -n '__kairos_path_is cal oauth add' -l device-endpoint
complete -c kairos -n '__kairos_path_is cal oauth add' -l revocation-endpoint
complete -c kairos -n '__kairos_path_is cal oauth add' -l device
complete -c kairos -n '__kairos_path_is cal oauth add' -l no-browser
complete -c kairos -n '__kairos_path_is cal oauth add' -l help
complete -c kairos -n '__kairos_path_is cal oauth login' -l device
complete -c kairos -n '__kairos_path_is cal oauth login' -l no-browser
complete -c kairos -n '__kairos_path_is cal oauth login' -l help
complete -c kairos -n '__kairos_path_is cal oauth list' -l help
complete -c kairos -n '__kairos_path_is cal oauth check' -l refresh
complete -c kairos -n '__kairos_path_is cal oauth check' -l help
complete -c kairos -n '__kairos_path_is cal oauth remove' -l yes
complete -c kairos -n '__kairos_path_is cal oauth remove' -l help
complete -c kairos -n '__kairos_path_is tempo' -a tags -d 'list the tempo tags: built-in and every tag you use'
complete -c kairos -n '__kairos_path_is tempo' -a profile -d 'show your tempo profile: time ranges as a week grid, blocked time, cadence, budget'
complete -c kairos -n '__kairos_path_is tempo' -a set -d 'set the time range of a tag (local wall times; an end before the start crosses midnight)'
complete -c kairos -n '__kairos_path_is tempo' -a map -d 'map a word or task kind to a tag, for the planner (gym → @morning)'
complete -c kairos -n '__kairos_path_is tempo' -a block -d 'block time for agents: weekly (HH:MM-HH:MM) or once (a date and time range in words)'
complete -c kairos -n '__kairos_path_is tempo' -a unblock -d 'remove blocked time by its number in `kairos tempo profile`'
complete -c kairos -n '__kairos_path_is tempo' -a budget -d 'limit how many actions agents may schedule per day and per ISO week'
complete -c kairos -n '__kairos_path_is tempo' -a cadence -d 'limit how often agents may propose an action kind (add_event, reflect, reschedule_event)'
complete -c kairos -n '__kairos_path_is tempo' -l help
complete -c kairos -n '__kairos_path_is tempo tags' -l user
complete -c kairos -n '__kairos_path_is tempo tags' -l help
complete -c kairos -n '__kairos_path_is tempo profile' -l user
complete -c kairos -n '__kairos_path_is tempo profile' -l help
complete -c kairos -n '__kairos_path_is tempo set' -l days
complete -c kairos -n '__kairos_path_is tempo set' -l help
complete -c kairos -n '__kairos_path_is tempo map' -l help
complete -c kairos -n '__kairos_path_is tempo block' -l days
complete -c kairos -n '__kairos_path_is tempo block' -l label
complete -c kairos -n '__kairos_path_is tempo block' -l for
complete -c kairos -n '__kairos_path_is tempo block' -l help
complete -c kairos -n '__kairos_path_is tempo unblock' -l help
complete -c kairos -n '__kairos_path_is tempo budget' -l per-day
complete -c kairos -n '__kairos_path_is tempo budget' -l per-week
complete -c kairos -n '__kairos_path_is tempo budget' -l agent
complete -c kairos -n '__kairos_path_is tempo budget' -l help
complete -c kairos -n '__kairos_path_is tempo cadence' -l per-event
complete -c kairos -n '__kairos_path_is tempo cadence' -l help
complete -c kairos -n '__kairos_path_is keys' -a create -d 'create an API key; its secret is printed once'
complete -c kairos -n '__kairos_path_is keys' -a list -d 'list keys (never their secrets)'
complete -c kairos -n '__kairos_path_is keys' -a rotate -d 'give a key a new secret; the old one stops working'
complete -c kairos -n '__kairos_path_is keys' -a revoke -d 'revoke a key at once'
complete -c kairos -n '__kairos_path_is keys' -l help
complete -c kairos -n '__kairos_path_is keys create' -l scopes
complete -c kairos -n '__kairos_path_is keys create' -l agent
complete -c kairos -n '__kairos_path_is keys create' -l ttl
complete -c kairos -n '__kairos_path_is keys create' -l mcp-config
complete -c kairos -n '__kairos_path_is keys create' -l help
complete -c kairos -n '__kairos_path_is keys list' -l help
complete -c kairos -n '__kairos_path_is keys rotate' -l help
complete -c kairos -n '__kairos_path_is keys revoke' -l yes
complete -c kairos -n '__kairos_path_is keys revoke' -l help
complete -c kairos -n '__kairos_path_is mcp' -l agent
complete -c kairos -n '__kairos_path_is mcp' -l help
complete -c kairos -n '__kairos_path_is user' -a profile -d 'show your profile'
complete -c kairos -n '__kairos_path_is user' -a update -d 'change display name, email, time zone or preferences'
complete -c kairos -n '__kairos_path_is user' -a passwd -d 'set your email and password (for `kairos user login` and frontends)'
complete -c kairos -n '__kairos_path_is user' -a login -d 'exchange email and password for a 12-hour token'
complete -c kairos -n '__kairos_path_is user' -l help
complete -c kairos -n '__kairos_path_is user profile' -l help
complete -c kairos -n '__kairos_path_is user update' -l name
complete -c kairos -n '__kairos_path_is user update' -l email
complete -c kairos -n '__kairos_path_is user update' -l tz
complete -c kairos -n '__kairos_path_is user update' -l set
complete -c kairos -n '__kairos_path_is user update' -l current
complete -c kairos -n '__kairos_path_is user update' -l password-stdin
complete -c kairos -n '__kairos_path_is user update' -l help
complete -c kairos -n '__kairos_path_is user passwd' -l email
complete -c kairos -n '__kairos_path_is user passwd' -l password-stdin
complete -c kairos -n '__kairos_path_is user passwd' -l current
complete -c kairos -n '__kairos_path_is user passwd' -l help
complete -c kairos -n '__kairos_path_is user login' -l email
complete -c kairos -n '__kairos_path_is user login' -l password-stdin
complete -c kairos -n '__kairos_path_is user login' -l help
complete -c kairos -n '__kairos_path_is export' -l format
complete -c kairos -n '__kairos_path_is export' -l from
complete -c kairos -n '__kairos_path_is export' -l to
complete -c kairos -n '__kairos_path_is export' -l tag
complete -c kairos -n '__kairos_path_is export' -l task
complete -c kairos -n '__kairos_path_is export' -l type
complete -c kairos -n '__kairos_path_is export' -l group-by
complete -c kairos -n '__kairos_path_is export' -l max-tokens
complete -c kairos -n '__kairos_path_is export' -l include-feedback
complete -c kairos -n '__kairos_path_is export' -l include-expired
complete -c kairos -n '__kairos_path_is export' -l since
complete -c kairos -n '__kairos_path_is export' -l until
complete -c kairos -n '__kairos_path_is export' -l since-checkpoint
complete -c kairos -n '__kairos_path_is export' -l until-checkpoint
complete -c kairos -n '__kairos_path_is export' -l checkpoint
complete -c kairos -n '__kairos_path_is export' -l list-checkpoints
complete -c kairos -n '__kairos_path_is export' -l limit
complete -c kairos -n '__kairos_path_is export' -l cursor
complete -c kairos -n '__kairos_path_is export' -l all
complete -c kairos -n '__kairos_path_is export' -l user
complete -c kairos -n '__kairos_path_is export' -l output
complete -c kairos -n '__kairos_path_is export' -l help
complete -c kairos -n '__kairos_path_is daemon' -a run -d 'run the daemon in the foreground (logs to daemon.log)'
complete -c kairos -n '__kairos_path_is daemon' -a start -d 'start the daemon in the background'
complete -c kairos -n '__kairos_path_is daemon' -a stop -d 'stop the running daemon'
complete -c kairos -n '__kairos_path_is daemon' -a restart -d 'stop, then start the daemon'
complete -c kairos -n '__kairos_path_is daemon' -a status -d 'is the daemon running, where, which version'
complete -c kairos -n '__kairos_path_is daemon' -a logs -d 'print the daemon\'s log (JSON lines; readable here, as they are with --json)'
complete -c kairos -n '__kairos_path_is daemon' -l help
complete -c kairos -n '__kairos_path_is daemon run' -l port
complete -c kairos -n '__kairos_path_is daemon run' -l host
complete -c kairos -n '__kairos_path_is daemon run' -l tls-cert
complete -c kairos -n '__kairos_path_is daemon run' -l tls-key
complete -c kairos -n '__kairos_path_is daemon run' -l insecure
complete -c kairos -n '__kairos_path_is daemon run' -l help
complete -c kairos -n '__kairos_path_is daemon start' -l port
complete -c kairos -n '__kairos_path_is daemon start' -l host
complete -c kairos -n '__kairos_path_is daemon start' -l tls-cert
complete -c kairos -n '__kairos_path_is daemon start' -l tls-key
complete -c kairos -n '__kairos_path_is daemon start' -l insecure
complete -c kairos -n '__kairos_path_is daemon start' -l help
complete -c kairos -n '__kairos_path_is daemon stop' -l help
complete -c kairos -n '__kairos_path_is daemon restart' -l port
complete -c kairos -n '__kairos_path_is daemon restart' -l host
complete -c kairos -n '__kairos_path_is daemon restart' -l tls-cert
complete -c kairos -n '__kairos_path_is daemon restart' -l tls-key
complete -c kairos -n '__kairos_path_is daemon restart' -l insecure
complete -c kairos -n '__kairos_path_is daemon restart' -l help
complete -c kairos -n '__kairos_path_is daemon status' -l help
complete -c kairos -n '__kairos_path_is daemon logs' -l follow
complete -c kairos -n '__kairos_path_is daemon logs' -l lines
complete -c kairos -n '__kairos_path_is daemon logs' -l help
complete -c kairos -n '__kairos_path_is config' -a list -d 'every setting, its value in effect and where it comes from (config.json, an environment variable, the default)'
complete -c kairos -n '__kairos_path_is config' -a get -d 'the value in effect of one setting'
complete -c kairos -n '__kairos_path_is config' -a set -d 'change a setting, checked before it is written; a running daemon applies it after a restart'
complete -c kairos -n '__kairos_path_is config' -a unset -d 'remove a setting from config.json (its default applies)'
complete -c kairos -n '__kairos_path_is config' -l help
complete -c kairos -n '__kairos_path_is config list' -l help
complete -c kairos -n '__kairos_path_is config get' -l help
complete -c kairos -n '__kairos_path_is config set' -l help
complete -c kairos -n '__kairos_path_is config unset' -l help
complete -c kairos -n '__kairos_path_is completion' -l help
