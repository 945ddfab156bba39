import { AppError, ExitCode, exitCodeFor } from '../errors.js';
import type { ProgramContext } from './command-runtime.js';
import { fastCommand } from './fast-path.js';
import { INTERRUPTED, isInterrupt } from './input/interrupt.js';
import type { Streams } from './output/io.js';
import { forTerminal } from './output/terminal-text.js';
import { createProgram } from './program.js';

/** commander's own errors (help shown, a usage mistake), known without loading commander. */
function isCommanderError(err: unknown): err is Error & { exitCode: number } {
  const e = err as { code?: unknown; exitCode?: unknown } | undefined;
  return typeof e?.code === 'string' && e.code.startsWith('commander.') && typeof e.exitCode === 'number';
}

/** The one top-level catch: commands throw, only this sets the exit code. */
export async function main(argv: string[], streams: Streams = process, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const ctx: ProgramContext = { streams, env };
  // A reader that went away (`kairos … | head`) is not an error: stop quietly, as Unix tools do.
  streams.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
  try {
    // A plain line of a simple command runs without commander; anything else is commander's.
    const fast = await fastCommand(ctx, argv);
    if (fast) await fast();
    else await (await createProgram(ctx, argv)).parseAsync(argv);
    return ctx.ran?.exitCode ?? 0;
  } catch (err) {
    if (isCommanderError(err)) {
      // --help and --version end here with code 0; usage mistakes with 2 (commander printed why).
      return err.exitCode === 0 ? 0 : ExitCode.usage;
    }
    // Ctrl-C at a prompt: the command said what it kept; exit as a shell reports an interrupt.
    if (isInterrupt(err)) return INTERRUPTED;
    const json = ctx.ran?.globals.json;
    // An error's text may be a server's, an event's title or a trace's: shown, never obeyed.
    const say = (text: string) => streams.stderr.write(forTerminal(text));
    if (err instanceof AppError) {
      // Loaded only for an error: the phrasing of the daemon's validation answers.
      const { validationSentences } = await import('./output/validation-text.js');
      if (json)
        streams.stderr.write(JSON.stringify({ error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } }) + '\n');
      else if (validationSentences(err, argv)) {
        for (const s of validationSentences(err, argv)!) say(`kairos: ${s}\n`);
      } else {
        say(`kairos: ${err.message}\n`);
        // A detail the message already says (a check that names its flag first, as `--at: …`) is not said twice.
        for (const d of err.details ?? []) if (!err.message.startsWith(`${d.path}:`) && !err.message.includes(d.message)) say(`  ${d.path}: ${d.message}\n`);
      }
      return exitCodeFor(err);
    }
    say(`kairos: ${(err as Error)?.stack ?? String(err)}\n`);
    return ExitCode.failure;
  }
}
