import { type CliDeps, type RunInput, usage } from '../../command-runtime.js';
import { parseSetPairs } from '../../input/set-pairs.js';
import { parseDuration, parseWhen } from '../../input/when.js';
import { describe, startLabel } from '../../output/calendar-format.js';
import { occurrenceOf, resolveOccurrence } from './views/occurrence.js';

interface Opts {
  set?: string[];
  at?: string;
  for?: string;
  title?: string;
  occurrence?: string;
  expectedVersion?: number;
}

export async function run({ args, opts }: RunInput<Opts>, deps: CliDeps): Promise<void> {
  const updates: Record<string, unknown> = parseSetPairs(opts.set ?? []);
  // Shorthands: --set at=… reads like --at.
  let atFlag = '--at';
  if ('at' in updates) {
    opts.at = String(updates.at);
    atFlag = '--set at';
    delete updates.at;
  }
  const client = await deps.client();
  const zone = await deps.userZone();
  if (opts.at) updates.scheduled_for = parseWhen(opts.at, zone, new Date(), atFlag);
  if (typeof updates.scheduled_for === 'string' && !/T/.test(updates.scheduled_for) && !/^\d{4}-\d{2}-\d{2}$/.test(updates.scheduled_for))
    updates.scheduled_for = parseWhen(updates.scheduled_for, zone, new Date(), '--set scheduled_for');
  if (opts.for) updates.duration_minutes = parseDuration(opts.for);
  if (opts.title) updates.title = opts.title;
  if (!Object.keys(updates).length) throw usage('Nothing to change: give --set key=value, --at, --for or --title.');
  const uid = args[0]!;
  const rid = opts.occurrence ? await resolveOccurrence(client, uid, opts.occurrence, zone) : undefined;
  const ev = await client.call('PATCH /calendar/edit', {
    body: {
      uid,
      updates,
      ...(rid ? { recurrence_id: rid } : {}),
      ...(opts.expectedVersion ? { expected_version: opts.expectedVersion } : {}),
    },
  });
  if (!rid) {
    deps.io.data(ev, () => `Updated ${ev.uid} “${ev.title}” (version ${ev.version}): ${describe(ev, zone)}`);
    return;
  }
  // The answer is the series; what the person changed is one occurrence of it: show that one.
  const one = occurrenceOf(ev, rid);
  deps.io.data(
    ev,
    () =>
      `Updated the ${startLabel({ ...ev, scheduled_for: rid }, zone)} occurrence of ${ev.uid} “${one.title}” (version ${ev.version}): ${describe(one, zone)}${one.status === 'confirmed' ? '' : ` (${one.status})`}`,
  );
}
