import type { FreeTime } from '../../contracts/calendar.js';
import type { SearchResult } from '../../contracts/memory.js';
import type { ChatCommand, ProposedTrace, RespondRequest, RespondResponse } from '../../contracts/planner.js';
import type { Plan } from '../../contracts/plans.js';
import { AppError } from '../../errors.js';
import { formatHHMM } from '../../time/local-date.js';
import { isTempoTag } from '../../time/tags.js';
import { wallAt } from '../../time/zone-cache.js';
import type { Clock } from '../clock.js';
import type { MemoryService } from '../memory/memory-service.js';
import { type Principal, requireScope } from '../principal.js';
import { matchEvent } from './event-match.js';
import { asksFree, freeQuestion } from './free-question.js';
import { localStamp } from './place.js';
import type { PlanRun } from './planner-service.js';
import { normalizePrompt } from './text/normalize.js';
import { contentWords, slug } from './text/title.js';
import { SCHEDULING_VERB_RE } from './text/words.js';
import type { PlannerInput } from './types.js';

export interface ChatDeps {
  run(req: RespondRequest): Promise<PlanRun>;
  /** Free time of one local day (GET /calendar/free's answer); absent, free-time questions search memory. */
  free?(q: { date: string; duration_minutes: number }): Promise<FreeTime>;
  input(req: RespondRequest): PlannerInput;
  /** The zone and instant a prompt is read in, without gathering the planner's input. */
  when(req: RespondRequest): { timezone: string; now: Date };
  propose(req: RespondRequest, run: PlanRun): Promise<Plan>;
  memory: MemoryService;
  clock: Clock;
}

const QUESTION_START =
  /^(?:what(?!\s+about)|when|where|who|whom|why|how(?!\s+about)|which|did|does|do\s+i|have\s+i|has|had|was|were|is|are|am\s+i|can\s+you\s+(?:tell|remind)|tell\s+me|remind\s+me\s+(?:what|when|where|how))\b/;
/** "Note: …", "Remember that …": a note whatever else it says. */
const EXPLICIT_NOTE = /^(?:note|notes|log|journal|fyi|observation|idea|goal|reflection)\s*[:-]\s*|^remember\s+that\s+/i;
const NOTE_PREFIX =
  /^(?:note|notes|log|journal|remember(?:\s+that)?|fyi|observation|idea|goal|reflection|today\s+i|i\s+(?:just\s+)?(?:did|went|finished|feel|felt|am|was|had|slept|ran|met|learned|learnt|realized|realised|noticed|think|want|will|plan\s+to|'m|’m)|my\s+goal)\b\s*[:,-]?\s*/i;
const GOAL = /\b(?:goal|i\s+want\s+to|i\s+will|i'm\s+going\s+to|i\s+plan\s+to|aim\s+to|by\s+the\s+end\s+of)\b/i;
const REFLECTION = /\b(?:reflect\w*|learn(?:ed|t)|realized|realised|lesson|went\s+well|didn't\s+go|could\s+have)\b/i;

function command(label: string, cli: string, method: ChatCommand['method'], path: string, body?: Record<string, unknown>): ChatCommand {
  return { label, cli, method, path, ...(body ? { body } : {}) };
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * POST /chat/respond: a question about the past is answered from memory search (with the uids it
 * used); a scheduling prompt becomes a plan in the queue; a note becomes proposed traces (not
 * saved); anything else gets a reply saying why nothing happened. `commands` lists what the
 * client could run next.
 */
export async function respond(d: ChatDeps, p: Principal, req: RespondRequest): Promise<RespondResponse> {
  const text = normalizePrompt(req.prompt).text;
  const lower = text.toLowerCase();
  const question =
    (QUESTION_START.test(lower) || /\?\s*$/.test(lower)) && !SCHEDULING_VERB_RE.test(lower) && !/^(?:can|could|would|will)\s+(?:you|we)\b/.test(lower);
  if (d.free && asksFree(text)) return freeAnswer(d, d.free, p, req, text);
  if (question) return answer(d, p, req, text);

  const run = await d.run(req);
  if (run.actions.length && !EXPLICIT_NOTE.test(text)) {
    let plan: Plan;
    try {
      plan = await d.propose(req, run);
    } catch (e) {
      // The constraints refused it: say so rather than fail the conversation.
      if (e instanceof AppError && e.status === 422) {
        return {
          reply: `${run.reply} But it cannot be proposed: ${e.message}`,
          intent: 'none',
          commands: [command('preview the plan', `kairos plan --preview ${shellQuote(req.prompt)}`, 'POST', '/chat/plan-preview', { prompt: req.prompt })],
          proposed_traces: [],
        };
      }
      throw e;
    }
    const id = plan.plan_id;
    return {
      reply: `${run.reply} Plan ${id} is waiting for your approval.`,
      intent: 'plan',
      commands: [
        command('approve and execute', `kairos approve ${id} --execute`, 'POST', '/agent/approve', { plan_id: id, execute: true }),
        command('approve', `kairos approve ${id}`, 'POST', '/agent/approve', { plan_id: id }),
        command('reject', `kairos reject ${id}`, 'POST', '/agent/reject', { plan_id: id }),
        command('review interactively', 'kairos review', 'GET', '/agent/queue'),
      ],
      proposed_traces: [],
      plan,
    };
  }

  const note = noteTraces(text, req, d.clock.now(), run);
  if (note.length) {
    return {
      reply: `${note.length === 1 ? 'This reads as a note' : 'These read as notes'}; nothing is saved until you push ${note.length === 1 ? 'it' : 'them'}.${run.skipped.some((s) => /has no date/.test(s.reason)) && !NOTE_PREFIX.test(text) ? ` (To schedule it instead, say when: ${run.skipped[0]!.reason})` : ''}`,
      intent: 'note',
      commands: [command('save as traces', `kairos trace push - <<< ${shellQuote(JSON.stringify(note))}`, 'POST', '/memory/push', { traces: note })],
      proposed_traces: note,
    };
  }
  return {
    reply: run.reply,
    intent: 'none',
    commands: [
      command('plan something', `kairos plan ${shellQuote('Dentist next Tuesday at 3pm for 45 minutes')}`, 'POST', '/agent/plan', {
        prompt: 'Dentist next Tuesday at 3pm for 45 minutes',
      }),
    ],
    proposed_traces: [],
  };
}

/** A note: "Note: slept badly", "I finished the report", or a task with no time (kept as a goal). */
function noteTraces(text: string, req: RespondRequest, now: Date, run: PlanRun): ProposedTrace[] {
  const prefixed = NOTE_PREFIX.exec(text);
  const timeless = run.skipped.length > 0 && run.skipped.every((s) => /has no date, time or length|already happened/.test(s.reason));
  if (!prefixed && !timeless) return [];
  const content = (prefixed ? text.slice(prefixed[0].length) || text : text).trim();
  const words = contentWords(content);
  if (!words.length) return [];
  const happened = run.skipped.some((s) => /already happened/.test(s.reason));
  const type: ProposedTrace['type'] = REFLECTION.test(text) ? 'reflection' : GOAL.test(text) || (timeless && !prefixed && !happened) ? 'goal' : 'observation';
  const tag = /(?:^|\s)(@[a-z0-9]+(?:-[a-z0-9]+)*)\b/.exec(text.toLowerCase())?.[1];
  return [
    {
      type,
      task_id: req.task_id ?? slug(words.slice(0, 2).join(' ')),
      content: content[0]!.toUpperCase() + content.slice(1),
      timestamp: (req.context?.now ? new Date(req.context.now) : now).toISOString(),
      importance: 3,
      ...(tag && isTempoTag(tag) ? { tempo_tag: tag } : {}),
    },
  ];
}

const QUESTION_WORDS = new Set([
  'last',
  'ever',
  'recently',
  'lately',
  'previous',
  'time',
  'times',
  'often',
  'much',
  'many',
  'long',
  'ago',
  'tell',
  'remind',
  'remember',
  'note',
  'notes',
  'memory',
  'say',
  'said',
  'told',
  'talk',
  'talked',
  'mention',
  'mentioned',
  'write',
  'wrote',
  'written',
  'know',
  'knew',
  'think',
  'thought',
  'happen',
  'happened',
]);

/** Whether a search hit really mentions one of the words (keyword search also matches prefixes and typos). */
function mentions(summary: string, words: readonly string[]): boolean {
  const text = summary.toLowerCase();
  return words.some((w) => text.includes(w.length > 5 ? w.slice(0, Math.max(4, w.length - 2)) : w));
}

/** A question: memory search (and the calendar, for "when is my dentist?"), grounded in the uids used. */
async function answer(d: ChatDeps, p: Principal, req: RespondRequest, text: string): Promise<RespondResponse> {
  requireScope(p, 'memory:read');
  const words = contentWords(text).filter((w) => !QUESTION_WORDS.has(w));
  const query = words.join(' ');
  // Transitions are the queue's bookkeeping, not something the person did.
  const results: SearchResult[] = query
    ? (await d.memory.search(p, { query, limit: 10 })).results.filter((r) => r.type !== 'transition' && mentions(r.summary, words)).slice(0, 5)
    : [];
  const lines: string[] = [];
  const used: string[] = [];
  for (const r of results.slice(0, 3)) {
    lines.push(`${r.timestamp.slice(0, 10)} (${r.type}): ${r.summary}`);
    used.push(r.uid);
  }
  // Text the client passed in context.memory counts as memory too.
  for (const [i, m] of (req.context?.memory ?? []).entries()) {
    const s =
      typeof m === 'string'
        ? m
        : m && typeof m === 'object'
          ? String((m as Record<string, unknown>).content ?? (m as Record<string, unknown>).summary ?? '')
          : '';
    const uid =
      m && typeof m === 'object' && typeof (m as Record<string, unknown>).uid === 'string' ? ((m as Record<string, unknown>).uid as string) : `context-${i}`;
    const have = new Set(contentWords(s));
    if (s && words.some((w) => have.has(w))) {
      lines.push(`(from context) ${s.slice(0, 200)}`);
      used.push(uid);
    }
  }
  // "When is my dentist?": the calendar knows upcoming events.
  const input = d.input(req);
  const ev = words.length ? matchEvent(words, input.calendar, input.now.getTime()) : undefined;
  if (ev && ev.score >= 0.5 && ev.item.end > input.now.getTime()) {
    lines.unshift(`Next on your calendar: ${ev.item.title}, ${localStamp(ev.item.start, input.timezone)} (${input.timezone}).`);
    used.unshift(ev.item.occurrence_of ?? ev.item.uid);
  }
  const reply = lines.length
    ? `From your memory: ${lines.join(' · ')}`
    : query
      ? `I found nothing in your memory about ${JSON.stringify(query)}.`
      : 'Ask about something specific (e.g. "when did I last go running?").';
  return {
    reply,
    intent: 'question',
    commands: query ? [command('search memory', `kairos trace search ${shellQuote(query)}`, 'POST', '/memory/search', { query })] : [],
    proposed_traces: [],
    sources: results,
    used_uids: used,
  };
}

/** "When am I free on tuesday?": the day's free time from the calendar, not a memory search. */
async function freeAnswer(d: ChatDeps, free: NonNullable<ChatDeps['free']>, p: Principal, req: RespondRequest, text: string): Promise<RespondResponse> {
  requireScope(p, 'calendar:read');
  const { timezone, now } = d.when(req);
  const q = freeQuestion(text, timezone, now);
  const res = await free({ date: q.date, duration_minutes: q.minutes });
  const clock = (iso: string) => {
    const w = wallAt(Date.parse(iso), res.timezone);
    return formatHHMM(w.hour * 60 + w.minute);
  };
  const slots = res.slots.map((s) => `${clock(s.start)}–${clock(s.end)}`);
  const reply = slots.length
    ? `Free on ${res.date} (${res.timezone}) for ${q.minutes} minutes or more: ${slots.join(', ')}.`
    : `No free time of ${q.minutes} minutes or more on ${res.date} (${res.timezone}).`;
  return {
    reply,
    intent: 'free',
    commands: [
      command('free time that day', `kairos cal free ${res.date} --for ${q.minutes}m`, 'GET', `/calendar/free?date=${res.date}&duration_minutes=${q.minutes}`),
    ],
    proposed_traces: [],
    free: res,
  };
}
