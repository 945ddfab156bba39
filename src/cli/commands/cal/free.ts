import type { CliDeps, RunInput } from '../../command-runtime.js';
import { dayOf, fetchFree, freeText } from '../../flows/free-time.js';
import { parseDuration } from '../../input/when.js';

/** `kairos cal free <day> --for <duration>`: free gaps of the profile's day. */
export async function run({ args, opts }: RunInput<{ for?: string; tag?: string }>, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const zone = await deps.userZone();
  const date = dayOf(args[0] ?? 'today', zone, new Date(), 'DAY');
  const res = await fetchFree(client, date, parseDuration(opts.for ?? '30m'), opts.tag);
  deps.io.data(res, () => freeText(res, deps.io.chalk));
}
