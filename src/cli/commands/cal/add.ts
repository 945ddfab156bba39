import { AppError } from '../../../errors.js';
import { describeRrule, parseRepeat, REPEAT_EXAMPLES } from '../../../time/repeat.js';
import type { CliDeps, RunInput } from '../../kit.js';
import { describe } from './format.js';
import { ISO_DATE, parseDuration, parseWhen } from './when.js';

interface Opts {
  at: string;
  for?: string;
  tag?: string;
  tz?: string;
  task?: string;
  repeat?: string;
  allDay?: boolean;
  where?: string;
  note?: string;
}

export async function run({ args, opts }: RunInput<Opts>, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const zone = opts.tz ?? (await deps.userZone());
  const start = parseWhen(opts.at, zone, new Date());
  const allDay = Boolean(opts.allDay) || ISO_DATE.test(start);
  const body = {
    title: args.join(' '),
    scheduled_for: allDay && !ISO_DATE.test(start) ? start.slice(0, 10) : start,
    ...(opts.for ? { duration_minutes: parseDuration(opts.for) } : {}),
    ...(allDay ? { all_day: true } : {}),
    ...(opts.tag ? { tag: opts.tag } : {}),
    ...(opts.tz ? { timezone: opts.tz } : {}),
    ...(opts.task ? { task_id: opts.task } : {}),
    ...(opts.repeat ? { rrule: parseRepeat(opts.repeat, zone) } : {}),
    ...(opts.where ? { location: opts.where } : {}),
    ...(opts.note ? { description: opts.note } : {}),
  };
  const ev = await client.call('POST /calendar/create', { body }).catch((e: unknown) => {
    // The daemon's rule check names the field (`rrule: malformed RRULE …`): say it of the flag, with examples.
    const d = e instanceof AppError ? e.details?.find((x) => x.path === 'rrule') : undefined;
    if (d && e instanceof AppError) throw new AppError(e.status, e.code, `--repeat: ${d.message.replace(/\.$/, '')}. It takes words (${REPEAT_EXAMPLES}).`);
    throw e;
  });
  deps.io.data(ev, () => `Added ${ev.uid} “${ev.title}”: ${describe(ev, zone)}${ev.rrule ? `, repeating ${describeRrule(ev.rrule, zone)} (${ev.rrule})` : ''}`);
  if (ev.conflicts.length) deps.io.note(`kairos: overlaps ${ev.conflicts.length} event(s): ${ev.conflicts.join(', ')}`);
}
