import type { CliDeps, RunInput } from '../../command-runtime.js';
import { allEvents } from '../../input/all-events.js';
import { confirmOrYes } from '../../input/confirm.js';
import { describe, startLabel } from '../../output/calendar-format.js';
import { resolveOccurrence } from './views/occurrence.js';

export async function run({ args, opts }: RunInput<{ yes?: boolean; occurrence?: string }>, deps: CliDeps): Promise<void> {
  const uid = args[0]!;
  const client = await deps.client();
  const zone = await deps.userZone();
  const rid = opts.occurrence ? await resolveOccurrence(client, uid, opts.occurrence, zone) : undefined;
  // Name what goes (title and time), as khal and gh do before deleting; a missing uid is a 404 here.
  const { events } = await allEvents(client, { expand: 'false' });
  const ev = events.find((e) => e.uid === uid);
  const title = ev ? ` “${ev.title}”` : '';
  const what = rid
    ? `the ${ev ? startLabel({ ...ev, scheduled_for: rid }, zone) : rid} occurrence of ${uid}${title}`
    : `event ${uid}${title}${ev ? ` (${describe(ev, zone)}${ev.rrule ? ', every occurrence' : ''})` : ''}`;
  if (!(await confirmOrYes(deps, opts.yes, `Remove ${what}?`))) {
    deps.io.note('kairos: nothing removed');
    return;
  }
  const res = await client.call('DELETE /calendar/remove', { query: { uid, ...(rid ? { recurrence_id: rid } : {}) } });
  deps.io.data(res, () => `Removed ${what}`);
}
