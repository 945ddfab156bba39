import type { ApiClient } from '../../../client/http.js';
import { AppError } from '../../../errors.js';
import { describeRrule, parseRepeat, REPEAT_EXAMPLES } from '../../../time/repeat.js';
import { type CliDeps, type RunInput, usage } from '../../command-runtime.js';
import { ISO_DATE, parseDuration, parseWhen } from '../../input/when.js';
import { describe } from '../../output/calendar-format.js';
import { overlapWarning } from './overlap-warning.js';

interface Opts {
  at?: string;
  for?: string;
  tag?: string;
  tz?: string;
  task?: string;
  repeat?: string;
  allDay?: boolean;
  where?: string;
  note?: string;
}

/** A unit the shell split from `--for`: `--for 2 days` gives `--for 2` and a title word `days`. */
const UNIT_WORD = /^(?:days?|d|hours?|hrs?|h|minutes?|mins?|m)$/i;

export async function run({ args, opts }: RunInput<Opts>, deps: CliDeps): Promise<void> {
  const client = await deps.client();
  const zone = opts.tz ?? (await deps.userZone());
  const words = [...args];
  let length = opts.for;
  if (length && /^\d+$/.test(length) && words.length > 1 && UNIT_WORD.test(words.at(-1)!)) length = `${length} ${words.pop()}`;
  // Without --at the title is a phrase in the planner's grammar; flags given still win.
  const phrase = opts.at === undefined ? await readPhrase(client, words.join(' '), zone) : undefined;
  const start = phrase?.start ?? parseWhen(opts.at!, zone, new Date());
  const allDay = Boolean(opts.allDay) || ISO_DATE.test(start);
  const minutes = length ? parseDuration(length) : phrase?.minutes;
  const body = {
    title: phrase?.title ?? words.join(' '),
    scheduled_for: allDay && !ISO_DATE.test(start) ? start.slice(0, 10) : start,
    ...(minutes ? { duration_minutes: minutes } : {}),
    ...(phrase?.rrule && !opts.repeat ? { rrule: phrase.rrule } : {}),
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
  if (ev.conflicts.length) deps.io.note(`kairos: ${await overlapWarning(client, ev, zone)}`);
}

/** "dentist next tuesday at 3pm for 1h" → title, start and length, read by the planner (nothing is queued). */
async function readPhrase(client: ApiClient, text: string, zone: string): Promise<{ title: string; start: string; minutes: number; rrule?: string }> {
  const p = await client.call('POST /chat/plan-preview', { body: { prompt: text, context: { timezone: zone } } });
  const item = p.items.find((i) => i.action_kind === 'add_event');
  if (!item)
    throw usage(
      `Could not read a time in "${text}": ${p.reply || 'no event in it'}. Say e.g. kairos cal add "dentist next tuesday at 3pm for 1h", or give --at.`,
    );
  return { title: item.title, start: item.scheduled_for, minutes: item.duration_minutes, ...(item.rrule ? { rrule: item.rrule } : {}) };
}
