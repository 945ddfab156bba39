import { EVENT_SOURCES, type EventSource } from '../../../contracts/calendar.js';
import { type CliDeps, type RunInput, usage } from '../../command-runtime.js';
import { confirmOrYes } from '../../input/confirm.js';

/** `kairos cal rm-many --import ID | --source S`: bulk removal, one summary trace. */
export async function run({ opts }: RunInput<{ import?: string; source?: string; yes?: boolean }>, deps: CliDeps): Promise<void> {
  if (Boolean(opts.import) === Boolean(opts.source)) throw usage('Give exactly one of --import <import_id> and --source <source>.');
  if (opts.source && !(EVENT_SOURCES as readonly string[]).includes(opts.source))
    throw usage(`--source must be one of ${EVENT_SOURCES.join(', ')}, not "${opts.source}".`);
  const what = opts.import ? `every event import ${opts.import} created` : `every event from ${opts.source}`;
  if (!(await confirmOrYes(deps, opts.yes, `Remove ${what}?`))) {
    deps.io.note('kairos: nothing removed');
    return;
  }
  const client = await deps.client();
  const body = opts.import ? { import_id: opts.import } : { source: opts.source as EventSource };
  const res = await client.call('POST /calendar/remove-many', { body });
  deps.io.data(res, () => `Removed ${res.removed} event${res.removed === 1 ? '' : 's'} (${what}).`);
}
