import type { Streams } from '../output/io.js';

/** What @inquirer throws when the person presses Ctrl-C at a prompt. */
export const isInterrupt = (e: unknown): boolean => (e as Error | undefined)?.name === 'ExitPromptError';

/** The exit code of a command interrupted with Ctrl-C (128 + SIGINT), as shells report it. */
export const INTERRUPTED = 130;

/**
 * The context for @inquirer prompts on the command's streams: an answered prompt stays on screen
 * (a transcript of the choices), an interrupted one is erased, so Ctrl-C leaves no half-asked
 * question behind. inquirer reads `clearPromptOnDone` when the prompt ends, after the Ctrl-C
 * keypress was seen here, hence a getter rather than a fixed value.
 */
export function promptContext(streams: Pick<Streams, 'stdin'> & { output: NodeJS.WritableStream }) {
  let interrupted = false;
  const input = streams.stdin;
  const onKey = (_: unknown, key?: { ctrl?: boolean; name?: string }) => {
    if (key?.ctrl && key.name === 'c') interrupted = true;
  };
  // readline turns stdin into a keypress emitter when the first prompt opens; this listener only reads.
  input.on('keypress', onKey);
  return {
    input,
    output: streams.output,
    get clearPromptOnDone() {
      return interrupted;
    },
  };
}
