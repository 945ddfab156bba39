import { Command, Option } from 'commander';
import { VERSION } from '../version.js';
import { registerApprove } from './commands/approve/index.js';
import { registerCal } from './commands/cal/index.js';
import { registerChat } from './commands/chat/index.js';
import { registerCompletion } from './commands/completion/index.js';
import { registerDaemon } from './commands/daemon/index.js';
import { registerExecute } from './commands/execute/index.js';
import { registerExport } from './commands/export/index.js';
import { registerFeedback } from './commands/feedback/index.js';
import { registerKeys } from './commands/keys/index.js';
import { registerMcp } from './commands/mcp/index.js';
import { registerPlan } from './commands/plan/index.js';
import { registerQueue } from './commands/queue/index.js';
import { registerReject } from './commands/reject/index.js';
import { registerReview } from './commands/review/index.js';
import { registerStatus } from './commands/status/index.js';
import { registerTempo } from './commands/tempo/index.js';
import { registerTrace } from './commands/trace/index.js';
import { registerUser } from './commands/user/index.js';
import { registerWatch } from './commands/watch/index.js';
import type { ProgramContext } from './kit.js';

/**
 * The whole command tree. Nothing here runs a command or imports its implementation: each noun's
 * index only declares verbs, flags and examples (see kit.ts `lazy`).
 */
export function createProgram(ctx: ProgramContext): Command {
  const program = new Command('kairos')
    .description('Personal agent scheduling and memory: agents propose, you approve, everything is remembered.')
    .version(VERSION, '-V, --version')
    .option('--json', 'print the API JSON only (for jq and scripts)')
    .option('--url <url>', 'daemon URL (default: the local daemon; env KAIROS_URL)')
    .option('--api-key <key>', 'API key or token (default: credentials.json; env KAIROS_API_KEY)')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .option('-q, --quiet', 'no hints or progress on stderr')
    .addOption(new Option('--no-autostart', 'never start the daemon automatically'))
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.streams.stdout.write(s),
      writeErr: (s) => ctx.streams.stderr.write(s),
    });
  registerChat(program, ctx);
  registerPlan(program, ctx);
  registerQueue(program, ctx);
  registerReview(program, ctx);
  registerApprove(program, ctx);
  registerReject(program, ctx);
  registerExecute(program, ctx);
  registerFeedback(program, ctx);
  registerStatus(program, ctx);
  registerWatch(program, ctx);
  registerTrace(program, ctx);
  registerCal(program, ctx);
  registerTempo(program, ctx);
  registerKeys(program, ctx);
  registerMcp(program, ctx);
  registerUser(program, ctx);
  registerExport(program, ctx);
  registerDaemon(program, ctx);
  registerCompletion(program, ctx);
  return program;
}
