import { usage } from '../command-runtime.js';

/** The prompt from the arguments (`kairos plan gym tomorrow 7am` needs no quotes). */
export function promptOf(args: string[]): string {
  const prompt = args.join(' ').trim();
  if (!prompt) throw usage('Say what to plan, e.g. kairos plan "dentist next Tuesday at 3pm for 45 minutes".');
  return prompt;
}
