import type { Command } from 'commander';
import { VERSION } from '../version.js';
import type { ProgramContext } from './command-runtime.js';

export type Register = (program: Command, ctx: ProgramContext) => void;

/**
 * Every top-level command, in the order help lists them, and where its declaration lives. Only
 * the one a command line names is loaded (each noun's index declares its verbs, flags and
 * examples; command-runtime.ts `lazy` loads the implementation only when it runs). The fast path
 * (fast-path.ts) reads the same declarations without commander, so nothing here imports it eagerly.
 */
export const COMMANDS: Record<string, () => Promise<Register>> = {
  chat: () => import('./commands/chat/index.js').then((m) => m.registerChat),
  plan: () => import('./commands/plan/index.js').then((m) => m.registerPlan),
  queue: () => import('./commands/queue/index.js').then((m) => m.registerQueue),
  review: () => import('./commands/review/index.js').then((m) => m.registerReview),
  approve: () => import('./commands/approve/index.js').then((m) => m.registerApprove),
  reject: () => import('./commands/reject/index.js').then((m) => m.registerReject),
  execute: () => import('./commands/execute/index.js').then((m) => m.registerExecute),
  feedback: () => import('./commands/feedback/index.js').then((m) => m.registerFeedback),
  undo: () => import('./commands/undo/index.js').then((m) => m.registerUndo),
  note: () => import('./commands/note/index.js').then((m) => m.registerNote),
  today: () => import('./commands/today/index.js').then((m) => m.registerToday),
  open: () => import('./commands/open/index.js').then((m) => m.registerOpen),
  status: () => import('./commands/status/index.js').then((m) => m.registerStatus),
  watch: () => import('./commands/watch/index.js').then((m) => m.registerWatch),
  trace: () => import('./commands/trace/index.js').then((m) => m.registerTrace),
  cal: () => import('./commands/cal/index.js').then((m) => m.registerCal),
  tempo: () => import('./commands/tempo/index.js').then((m) => m.registerTempo),
  keys: () => import('./commands/keys/index.js').then((m) => m.registerKeys),
  mcp: () => import('./commands/mcp/index.js').then((m) => m.registerMcp),
  user: () => import('./commands/user/index.js').then((m) => m.registerUser),
  export: () => import('./commands/export/index.js').then((m) => m.registerExport),
  daemon: () => import('./commands/daemon/index.js').then((m) => m.registerDaemon),
  config: () => import('./commands/config/index.js').then((m) => m.registerConfig),
  completion: () => import('./commands/completion/index.js').then((m) => m.registerCompletion),
  __complete: () => import('./commands/completion/index.js').then((m) => m.registerCompleteIds),
};

/** The part of commander's Command that declares an option (a real Command, or fast-path.ts's reader). */
export interface OptionSink {
  option(flags: string, description: string): unknown;
}

/** The options every command takes (declared on the program; given before or after the command). */
export function globalOptions(program: OptionSink): void {
  program.option('--json', 'print the API JSON only (for jq and scripts)');
  program.option('--url <url>', 'daemon URL (default: the local daemon; env KAIROS_URL)');
  program.option('--api-key <key>', 'API key or token (default: credentials.json; env KAIROS_API_KEY)');
  program.option('--no-color', 'no colour (also NO_COLOR)');
  program.option('-q, --quiet', 'no hints or progress on stderr');
  program.option('--no-autostart', 'never start the daemon automatically');
}

/** Global options that take a value: the word after them is not the command. */
const VALUE_OPTIONS = new Set(['--url', '--api-key']);

/** The top-level command a command line names (`kairos --json cal list` → `cal`), if any. */
export function commandNamed(argv: string[]): string | undefined {
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i]!;
    if (VALUE_OPTIONS.has(a)) i++;
    else if (!a.startsWith('-')) return a;
  }
  return undefined;
}

/**
 * The command tree: whole, or (given argv) only the command the line names, so a command loads
 * one noun's declarations instead of all of them. `--help`, `help`, a typo (for its suggestions)
 * and `completion` (whose scripts are made from the tree) get the whole tree.
 */
export async function createProgram(ctx: ProgramContext, argv?: string[]): Promise<Command> {
  const { KindedCommand } = await import('./kinded-command.js');
  const program = new KindedCommand('kairos')
    .description('Personal agent scheduling and memory: agents propose, you approve, everything is remembered.')
    .version(VERSION, '-V, --version');
  globalOptions(program);
  program
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.streams.stdout.write(s),
      writeErr: (s) => ctx.streams.stderr.write(s),
      // commander's "error: …" said as every other error is: "kairos: …".
      outputError: (s, write) => write(s.replace(/^error: /, 'kairos: ')),
    });
  const named = argv && commandNamed(argv);
  const only = named && named !== 'completion' && Object.hasOwn(COMMANDS, named) ? [named] : Object.keys(COMMANDS);
  const registers = await Promise.all(only.map((name) => COMMANDS[name]!()));
  for (const register of registers) register(program, ctx);
  return program;
}
