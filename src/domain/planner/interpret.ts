import type {
  BadTimeFeature,
  DateFeature,
  DaysFeature,
  DurationFeature,
  Feature,
  RangeFeature,
  RecurrenceFeature,
  RelativeFeature,
  ShiftFeature,
  TagFeature,
  TimeFeature,
} from './extract/features.js';
import { blank } from './extract/features.js';
import type { Segment } from './segment.js';
import { contentWords, titleFrom } from './text/title.js';
import {
  ALL_DAY_RE,
  BLOCK_PART_OF_DAY_RE,
  BLOCK_RE,
  CAN_WE_RE,
  CANCEL_VERB_RE,
  DAY_JOIN_RE,
  DETERMINER_BEFORE_RE,
  INSTEAD_RE,
  IRREGULAR_PAST,
  NOT_A_NOUN_RE,
  NOT_PAST,
  QUESTION_RE,
  RECURRENCE_ADJECTIVE_RE,
  REFLECT_LEAD_RE,
  REFLECT_RE,
  RESCHEDULE_VERB_RE,
  SCHEDULING_VERB_RE,
  STATEMENT_VERB_RE,
  STRONG_RESCHEDULE_RE,
} from './text/words.js';

/** One request, read: what it asks for and every time word that belongs to it. */
export interface Item {
  /** The request as written (after normalization). */
  text: string;
  kind: 'add_event' | 'reflect' | 'reschedule_event';
  title: string;
  /** Task words of the request (for event lookup and tag mappings). */
  words: string[];
  /** For a reflection: what to reflect on. */
  topic?: string;
  date?: DateFeature;
  /** The date came from the previous request ("Tomorrow: dentist at 10, then groceries at 4"). */
  dateInherited?: boolean;
  startDate?: DateFeature;
  days?: DaysFeature;
  bound?: DaysFeature;
  time?: TimeFeature;
  window?: TimeFeature;
  range?: RangeFeature;
  tag?: TagFeature;
  duration?: DurationFeature;
  relative?: RelativeFeature;
  shift?: ShiftFeature;
  recurrence?: RecurrenceFeature;
  /** A clock time no day has ("25:00"): the request is refused, saying why. */
  badTime?: BadTimeFeature;
  /** Whether the request carries any time information at all. */
  anchored: boolean;
  /** "schedule", "book", "find time"…: asked to put something on the calendar. */
  asked: boolean;
  /** A question that asks for information ("when is…", "what did…"). */
  question: boolean;
  reschedule?: 'strong' | 'weak';
  /** "move the 3pm meeting to 4pm": the time that names which event (the first of two). */
  fromTime?: TimeFeature;
  /** "cancel the dentist": a request the planner cannot turn into an action. */
  cancel?: boolean;
  /** "all day": the whole local day. */
  allDay?: boolean;
  /** "block off Friday afternoon": the whole named part of the day. */
  wholeRange?: boolean;
  /** A statement ("the weather is nice today") rather than a request. */
  statement?: boolean;
  /** It already happened ("ran 10 km this morning"): a note, not a plan. */
  past?: boolean;
  /** "gym monday and thursday at 7am": the other named days, each with its own time if it has one. */
  alsoOn?: { date: DateFeature; time?: TimeFeature }[];
}

/**
 * The days of a request that names several joined by "and" or a comma, each with the time
 * written beside it; the request's one time (when it has only one) serves a day without its own.
 */
function namedDays(lower: string, fs: readonly Feature[]): { date: DateFeature; time?: TimeFeature }[] {
  const dates = fs.filter((f): f is DateFeature => f.type === 'date' && !f.from && !f.deadline);
  if (dates.length < 2) return [];
  for (let i = 1; i < dates.length; i++) if (!DAY_JOIN_RE.test(lower.slice(dates[i - 1]!.end, dates[i]!.start))) return [];
  const times = fs.filter((f): f is TimeFeature => f.type === 'time' && !f.bound);
  return dates.map((date, i) => {
    const until = dates[i + 1]?.start ?? Number.POSITIVE_INFINITY;
    const own = times.find((t) => t.start >= date.start && t.start < until);
    return { date, time: own ?? (times.length === 1 ? times[0] : undefined) };
  });
}

/** Whether a title starts with a past-tense verb: "Ran 10 km", "Finished the report". */
export function startsInPast(title: string): boolean {
  const w = /^[a-z]+/i.exec(title)?.[0]?.toLowerCase();
  if (!w || NOT_PAST.has(w)) return false;
  return IRREGULAR_PAST.has(w) || (w.length > 4 && /[^e]ed$|ied$/.test(w));
}

const first = <T extends Feature['type']>(fs: readonly Feature[], type: T, pred: (f: Extract<Feature, { type: T }>) => boolean = () => true) =>
  fs.find((f): f is Extract<Feature, { type: T }> => f.type === type && pred(f as Extract<Feature, { type: T }>));

/**
 * "do the weekly grocery order tomorrow": "weekly" describes the task, it does not repeat it. An
 * adjective before a noun is not a repetition when a determiner precedes it or the request names
 * one day; "daily standup at 9" (no determiner, no day) still repeats.
 */
function adjectival(lower: string, seg: Segment, r: RecurrenceFeature): boolean {
  if (!RECURRENCE_ADJECTIVE_RE.test(lower.slice(r.start, r.end))) return false;
  const next = /^\s+([a-z]+)/.exec(lower.slice(r.end, seg.end))?.[1];
  if (!next || NOT_A_NOUN_RE.test(next)) return false;
  const determiner = DETERMINER_BEFORE_RE.test(lower.slice(seg.start, r.start));
  return determiner || seg.features.some((f) => f.type === 'date' && !f.from);
}

/** Read one segment of the prompt into an item; `previous` lends its date to a request that names none. */
export function interpret(text: string, lower: string, seg: Segment, previous: Item | undefined): Item {
  const fs = seg.features.filter((f) => f.type !== 'recurrence' || !adjectival(lower, seg, f));
  const segText = text.slice(seg.start, seg.end);
  const segLower = lower.slice(seg.start, seg.end);
  const removed = fs.filter((f) => f.type !== 'protected' || !f.keep).map((f) => ({ start: f.start - seg.start, end: f.end - seg.start }));
  const blanked = blank(segText, removed);

  const item: Item = {
    text: segText.trim(),
    kind: 'add_event',
    title: titleFrom(blanked),
    words: contentWords(blanked),
    date: first(fs, 'date', (d) => !d.from),
    startDate: first(fs, 'date', (d) => Boolean(d.from)),
    days: first(fs, 'days', (d) => !d.boundOnly),
    bound: first(fs, 'days', (d) => Boolean(d.boundOnly)),
    time: first(fs, 'time', (t) => !t.bound),
    window: first(fs, 'time', (t) => Boolean(t.bound)),
    range: first(fs, 'range'),
    tag: first(fs, 'tag'),
    duration: first(fs, 'duration'),
    relative: first(fs, 'relative'),
    shift: first(fs, 'shift'),
    // "weekly … on Thursdays": the repetition that names its days says more.
    recurrence: first(fs, 'recurrence', (r) => Boolean(r.weekdays)) ?? first(fs, 'recurrence'),
    badTime: first(fs, 'bad_time'),
    anchored: fs.some((f) => f.type !== 'protected'),
    asked: SCHEDULING_VERB_RE.test(segLower),
    question: QUESTION_RE.test(segLower.trim()),
  };
  // A recurrence bound like "in March" reads as a window of days; it bounds the repetition instead.
  if (item.recurrence && item.days && !item.bound) {
    item.bound = item.days;
    delete item.days;
  }

  if (REFLECT_RE.test(segLower)) {
    item.kind = 'reflect';
    const topic = item.title.replace(REFLECT_LEAD_RE, '').trim();
    item.topic = topic && !/^reflect/i.test(topic) ? topic : undefined;
    item.title = item.topic ? `Reflect on ${item.topic}` : 'Reflection';
  } else if (item.shift || RESCHEDULE_VERB_RE.test(segLower) || INSTEAD_RE.test(segLower) || CAN_WE_RE.test(segLower.trim())) {
    item.reschedule = STRONG_RESCHEDULE_RE.test(segLower) || INSTEAD_RE.test(segLower) ? 'strong' : 'weak';
  }

  if (!item.reschedule && !item.recurrence && item.kind === 'add_event') {
    const days = namedDays(lower, fs);
    if (days.length) {
      item.date = days[0]!.date;
      item.time = days[0]!.time ?? item.time;
      item.alsoOn = days.slice(1);
    }
  }

  if (item.reschedule) {
    // "move the 3pm meeting to 4pm" / "from Friday to Saturday": the last time and date are the target.
    const times = fs.filter((f): f is TimeFeature => f.type === 'time' && !f.bound);
    if (times.length > 1) {
      item.fromTime = times[0];
      item.time = times.at(-1);
    }
    const dates = fs.filter((f): f is DateFeature => f.type === 'date' && !f.from);
    if (dates.length > 1) item.date = dates.at(-1);
  }
  item.cancel = CANCEL_VERB_RE.test(segLower) && !item.reschedule;
  item.allDay = ALL_DAY_RE.test(segLower);
  if (item.allDay) item.title = item.title.replace(ALL_DAY_RE, '').trim() || item.title;
  item.wholeRange = Boolean(item.range && !item.duration && BLOCK_RE.test(segLower) && BLOCK_PART_OF_DAY_RE.test(segLower));
  item.past = startsInPast(item.title) && !item.asked && !item.reschedule && item.kind === 'add_event';
  item.statement = STATEMENT_VERB_RE.test(segLower) && !item.asked && !item.time && !item.duration && !item.reschedule && item.kind === 'add_event';

  // "Tomorrow: dentist at 10, then groceries at 4": a request without a date takes the previous one's.
  if (previous && !item.date && !item.days && !item.recurrence && !item.relative && !item.range?.today) {
    if (previous.date) {
      item.date = previous.date;
      item.dateInherited = true;
    } else if (previous.days) item.days = previous.days;
    if (!item.time && !item.range && !item.window && previous.range && !previous.time) item.range = previous.range;
  }
  return item;
}
