import { instantOf } from '../../../../time/zone-cache.js';
import type { CliDeps, RunInput } from '../../../command-runtime.js';
import { allEvents } from '../../../input/all-events.js';
import { parseWhen } from '../../../input/when.js';
import { agenda } from '../../../output/calendar-format.js';

const DAY = 86_400_000;

export async function run({ opts }: RunInput<{ from?: string; to?: string; tag?: string }>, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const zone = await deps.userZone();
  const now = new Date();
  const start = opts.from ? parseWhen(opts.from, zone, now, '--from') : now.toISOString();
  const end = opts.to ? parseWhen(opts.to, zone, now, '--to') : undefined;
  const bound = (s: string) =>
    /^\d{4}-\d{2}-\d{2}$/.test(s)
      ? instantOf({ year: +s.slice(0, 4), month: +s.slice(5, 7), day: +s.slice(8, 10), hour: 0, minute: 0, second: 0 }, zone)
      : Date.parse(s);
  // Seven days after --from; a bare date is midnight in the user's zone, as the server reads it.
  const fallbackEnd = () => new Date(bound(start) + 7 * DAY).toISOString();
  const to = end ?? fallbackEnd();
  const res = await allEvents(client, { start, end: to, tag: opts.tag });
  // Occurrences of a series share its uid; the uid is what other commands take.
  const id = deps.io.ids(res.events.map((e) => e.occurrence_of ?? e.uid));
  deps.io.data(res, () => agenda(res.events, zone, deps.io.chalk, { from: bound(start), to: bound(to) }, id));
}
