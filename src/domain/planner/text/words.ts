/**
 * Word lists of the English planner grammar. Kept apart from the rules so a reader can see at a
 * glance which words the planner knows and add one without touching any logic.
 */

import { WEEKDAY_NAMES } from '../../../time/local-date.js';

export { WEEKDAY_NAMES };

/** Full names and the abbreviations people type, each to its index (0 = Monday). */
export const WEEKDAY_INDEX: Readonly<Record<string, number>> = {
  monday: 0,
  mon: 0,
  tuesday: 1,
  tue: 1,
  tues: 1,
  wednesday: 2,
  wed: 2,
  weds: 2,
  thursday: 3,
  thu: 3,
  thur: 3,
  thurs: 3,
  friday: 4,
  fri: 4,
  saturday: 5,
  sat: 5,
  sunday: 6,
  sun: 6,
};

/** A weekday word (optionally plural: "Mondays" means every Monday). */
export const WEEKDAY_RE = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|weds?|thur?s?|fri|sat|sun)';

export const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'] as const;
export const MONTH_RE =
  '(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)';

export function monthIndex(word: string): number | undefined {
  const w = word.toLowerCase();
  const i = MONTH_NAMES.findIndex((m) => m === w || (w.length >= 3 && m.startsWith(w)));
  return i < 0 ? undefined : i + 1;
}

const SMALL: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  ninety: 90,
  a: 1,
  an: 1,
  single: 1,
  couple: 2,
  'a couple of': 2,
  'a couple': 2,
  'couple of': 2,
  'a few': 3,
  few: 3,
  several: 3,
};

/** A number as people write it in a duration: digits, words, "forty-five", "a couple of". */
export const NUMBER_RE =
  '(?:\\d+(?:\\.\\d+)?|a couple of|a couple|couple of|a few|several|(?:twenty|thirty|forty|fifty)[- ](?:one|two|three|four|five|six|seven|eight|nine)|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|ninety|an|a|single)';

/** The value of a NUMBER_RE match; undefined when it is not one. */
export function parseNumber(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (/^\d+(?:\.\d+)?$/.test(t)) return Number(t);
  if (Object.hasOwn(SMALL, t)) return SMALL[t];
  const compound = /^(twenty|thirty|forty|fifty)[- ](\w+)$/.exec(t);
  if (compound) {
    const unit = Object.hasOwn(SMALL, compound[2]!) ? SMALL[compound[2]!] : undefined;
    if (unit !== undefined && unit < 10) return SMALL[compound[1]!]! + unit;
  }
  return undefined;
}

/**
 * Words that carry no task meaning: articles, pronouns, prepositions, courtesy, chit-chat and
 * the verbs of asking for something to be scheduled. A segment made only of these (once dates,
 * times and durations are taken out) has nothing to schedule.
 */
export const FILLER_WORDS = new Set(
  (
    'a an the some any my our your his her their its this that these those me us you we i it he she they them him ' +
    'to for of on at in by with from into onto about around over under up down out off as and or but then also plus ' +
    'please pls plz kindly thanks thank thx ty cheers much so very really just maybe perhaps possibly ' +
    'um umm uh uhh er erm hmm ok okay well hey hi hello yo dear ' +
    'can could would will shall should must may might do does did done doing is are am was were be been being ' +
    'have has had having get got go going gonna wanna want wants need needs needed like love ' +
    'how what when where why who which whom whose there here ' +
    'schedule scheduled scheduling book booked put add added create set setup arrange organise organize plan ' +
    'block reserve find fit squeeze pencil slot remind reminder reminders calendar agenda diary ' +
    "sometime somewhere time times slot slots instead if possible let lets let's " +
    'yes no sure cool nice great good fine today tomorrow tonight ' +
    'next last coming following upcoming new ' +
    'day days week weeks weekend month months year hour hours minute minutes morning afternoon evening night ' +
    "i'm im i've ive i'll i'd u ur free busy available " +
    "that's thats all everything nothing anything something lol haha hahaha bye goodbye see soon"
  ).split(/\s+/),
);

/** Verbs that ask for something to be put on the calendar: they make a prompt actionable on their own. */
export const SCHEDULING_VERB_RE =
  /\b(?:schedule|book(?:\s+in)?|put|add|create|set\s+up|arrange|organi[sz]e|plan|block(?:\s+out|\s+off)?|reserve|find(?:\s+me)?(?:\s+(?:some\s+)?time)?|fit\s+in|squeeze\s+in|pencil\s+in|slot\s+in|remind\s+me|make\s+time)\b/i;

/** Verbs that move an existing event. */
export const RESCHEDULE_VERB_RE =
  /\b(?:move|moving|reschedule|rescheduling|push|postpone|delay|shift|bump|bring\s+forward|pull\s+forward|change|switch|rearrange|swap)\b/i;

/** Strong reschedule verbs: without a matching event they mean "not found", never a new event. */
export const STRONG_RESCHEDULE_RE = /\b(?:move|reschedule|postpone|delay|push\s+back|push\s+(?:it|\w+\s+\w+)\s+back|bring\s+forward|pull\s+forward)\b/i;

export const REFLECT_RE = /\b(?:reflect(?:ion|ions|ing)?|journal(?:ing|ling)?\s+(?:about|on)|retrospect(?:ive)?\s+on|look\s+back\s+on)\b/i;

/** Request phrases stripped from the start of a title, longest first, repeatedly. */
export const LEADING_PHRASES = [
  'i would like to',
  "i'd like to",
  'i would like',
  "i'd like",
  'i want to',
  'i wanna',
  'i need to',
  'i have to',
  'i must',
  'i should',
  'i gotta',
  "i've got",
  'i have got',
  'i have',
  'i got',
  "there's",
  'there is',
  'set a reminder to',
  'set a reminder for',
  'set a reminder',
  'reminder to',
  'reminder for',
  'reminder',
  "i'd love to",
  'i would love to',
  "i'd love",
  'love to',
  'carve out',
  'set aside',
  'put aside',
  'make some time for',
  'make some time to',
  'take some time to',
  'take time to',
  'take some time for',
  'get',
  'i need',
  'i want',
  'need to',
  'have to',
  'want to',
  'remember to',
  "don't forget to",
  'dont forget to',
  'remind me to',
  'remind me about',
  'remind me',
  'could you please',
  'can you please',
  'would you please',
  'could you maybe',
  'can you maybe',
  'could you',
  'can you',
  'would you',
  'will you',
  'could we',
  'can we',
  'shall we',
  "let's",
  'lets',
  'let me',
  'go ahead and',
  'please',
  'pls',
  'plz',
  'kindly',
  'maybe',
  'perhaps',
  'just',
  'also',
  'and',
  'then',
  'so',
  'um',
  'umm',
  'uh',
  'er',
  'ok',
  'okay',
  'well',
  'hey',
  'hi',
  'hello',
  'schedule in',
  'schedule',
  'book in',
  'plan in',
  'plan',
  'block out',
  'block off',
  'block',
  'reserve',
  'find me',
  'find some time for',
  'find time for',
  'find time to',
  'find',
  'make time for',
  'make room for',
  'squeeze in',
  'fit in',
  'pencil in',
  'slot in',
  'add',
  'put',
  'get me',
  'need',
  'sometime',
  'some time',
  'a',
  'an',
  'the',
  'some',
  'my',
  'our',
  'time for',
  'time to',
  'for',
  'to',
  'of',
  'on',
  'at',
  'in',
  'with',
  'about',
  'by',
  'from',
];

/** Phrases stripped from the end of a title, repeatedly. */
export const TRAILING_PHRASES = [
  'on my calendar',
  'on the calendar',
  'in my calendar',
  'in the calendar',
  'to my calendar',
  'to the calendar',
  'into my calendar',
  'on my schedule',
  'in my schedule',
  'to my schedule',
  'on my agenda',
  'in my diary',
  'for me',
  'if possible',
  'if you can',
  'when possible',
  'please',
  'thanks',
  'thank you',
  'instead',
  'sometime',
  'some time',
  'again',
  'as well',
  'too',
  'booked',
  'scheduled',
  'arranged',
  'sorted',
  'set up',
  'organised',
  'organized',
  'cheers',
  'on',
  'at',
  'for',
  'in',
  'by',
  'from',
  'to',
  'with',
  'of',
  'and',
  'then',
  'also',
  'the',
  'a',
  'an',
  'around',
  'about',
  'during',
  'between',
  'before',
  'after',
  'until',
  'every',
];

/** Abbreviations expanded before parsing (whole words, case-insensitive). */
export const ABBREVIATIONS: Readonly<Record<string, string>> = {
  tmrw: 'tomorrow',
  tmrow: 'tomorrow',
  tmr: 'tomorrow',
  tmw: 'tomorrow',
  tomo: 'tomorrow',
  remnd: 'remind',
  remid: 'remind',
  rmind: 'remind',
  tonite: 'tonight',
  '2nite': 'tonight',
  tnite: 'tonight',
  appt: 'appointment',
  appts: 'appointments',
  mtg: 'meeting',
  mtgs: 'meetings',
  wk: 'week',
  wks: 'weeks',
  wknd: 'weekend',
  wkend: 'weekend',
  arvo: 'afternoon',
  tues: 'tuesday',
  thur: 'thursday',
  thurs: 'thursday',
  weds: 'wednesday',
};

/**
 * Words the typo fixer corrects towards: the temporal vocabulary (a misspelled "tomorow" would
 * otherwise lose the date) and the request verbs (so "scheduel" is not taken for a title).
 */
export const CORRECTABLE = [
  'tomorrow',
  'today',
  'tonight',
  'yesterday',
  'morning',
  'afternoon',
  'evening',
  'weekend',
  "tomorrow's",
  ...WEEKDAY_NAMES,
  ...MONTH_NAMES.filter((m) => m.length >= 5),
  'minutes',
  'minute',
  'hours',
  'hour',
  'schedule',
  'reschedule',
  'appointment',
  'postpone',
  'calendar',
  'every',
  'reflect',
  'reflection',
  'please',
  'meeting',
  "o'clock",
];

/** Real words one edit away from a CORRECTABLE word: never "corrected". */
export const NOT_TYPOS = new Set([
  'mourning',
  'toady',
  'minuet',
  'evenings',
  'mornings',
  'afternoons',
  'weekends',
  'hourly',
  'ours',
  'house',
  'mondays',
  'tuesdays',
  'wednesdays',
  'thursdays',
  'fridays',
  'saturdays',
  'sundays',
  'scheduled',
  'schedules',
  'meetings',
  'appointments',
  'reflects',
  'reflected',
  'calendars',
  'pleased',
  'marches',
  'junes',
  'julys',
  'everyone',
  'ever',
  'eve',
  'fever',
  'never',
  'seven',
  'eleven',
  "sunday's",
  'minuets',
  "meeting's",
  'mee',
  'teeting',
  'postponed',
  'rescheduled',
  'reflective',
]);

/** Default length of a task when the prompt gives none, by a word of its title (minutes). */
export const DEFAULT_MINUTES: readonly [RegExp, number][] = [
  [/\b(?:stand-?up|check-?in|huddle)\b/i, 15],
  [
    /\b(?:call|phone|ring|coffee|chat|catch-?up|haircut|email|e-mails?|emails|inbox|stretch(?:ing)?|meditat\w*|walk|nap|break|pick\s*up|drop\s*off|errand)\b/i,
    30,
  ],
  [/\b(?:reflect\w*|journal\w*)\b/i, 15],
  [/\b(?:dinner|party|concert|movie|film|show|game|match|drinks)\b/i, 120],
  [/\b(?:hike|hiking|trip|outing)\b/i, 180],
  [/\b(?:focus|deep[- ]work|writing|study|studying)\b/i, 90],
];
export const FALLBACK_MINUTES = 60;

/** Title words that put a bare hour (7–11) in the evening: "dinner at 8" is 20:00. */
export const EVENING_HINT_RE = /\b(?:dinner|supper|drinks|party|concert|movie|film|theat(?:er|re)|show|date\s+night|pub|bar|gig)\b/i;

// ------------------------------------------------------------------ reading a request

/** Typing that is not a word: keyboard rows, placeholder text. */
export const KEYBOARD_MASH_RE = /^(?:asdf\w*|qwer\w*|zxcv\w*|hjkl\w*|jkl\w*|lorem|ipsum|blah+|foo|bar|baz|xyz\w*)$/;

/** Words of a "move …" request that do not name the event. */
export const MOVE_WORD_RE = /^(?:move|reschedule|postpone|delay|push|shift|bump|instead)$/;
/** Words of a "cancel …" request that do not name the event. */
export const CANCEL_WORD_RE = /^(?:cancel|delete|remove|drop|scrap)$/;
/** A request to cancel an event. */
export const CANCEL_VERB_RE = /\b(?:cancel|delete|remove|drop|call\s+off|scrap)\b/;
/** "… instead": the request moves something already planned. */
export const INSTEAD_RE = /\binstead\b/;
/** "can we do …", "could we have …": a request to move something. */
export const CAN_WE_RE = /^(?:can|could)\s+we\s+(?:do|have|make)\b/;

/** What joins two named days of one request: "monday and thursday", "monday, thursday", "monday & on thursday". */
export const DAY_JOIN_RE = /^\s*(?:,|,?\s*and|&)\s*(?:on\s+)?$/;

/** Repetition words that can describe a task instead of repeating it: "the weekly grocery order". */
export const RECURRENCE_ADJECTIVE_RE = /^(?:daily|weekly|monthly|bi-?weekly|fortnightly)$/;
/** Words after such an adjective that show it repeats after all: "daily at 9". */
export const NOT_A_NOUN_RE = /^(?:at|on|in|from|for|until|till|starting|by|every|each|and|or|then|from|before|after|around|about)$/;
/** A determiner just before a word: "the", "my", "this"… */
export const DETERMINER_BEFORE_RE = /\b(?:the|my|our|a|an|this|that|your|their|his|her)\s+$/;

/** Past tenses that do not end in -ed. */
export const IRREGULAR_PAST = new Set(
  'ran went had did ate slept met saw wrote got took made spent felt found bought brought caught taught thought fought sold told left lost won swam rode drove flew began drank sang gave came became kept sent paid built heard understood forgot'.split(
    ' ',
  ),
);
/** Words ending in -ed that are not past tenses. */
export const NOT_PAST = new Set([
  'need',
  'feed',
  'seed',
  'bleed',
  'speed',
  'breed',
  'shred',
  'proceed',
  'succeed',
  'exceed',
  'embed',
  'red',
  'bed',
  'wed',
  'shed',
  'weed',
  'deed',
  'reed',
  'greed',
  'tweed',
]);

/** A question that asks for information ("when is…", "what did…"), not for a plan. */
export const QUESTION_RE =
  /^(?:what(?!\s+about)|when|where|who|whom|why|how(?!\s+about)|which|did|does|do\s+(?:i|you|we)|have\s+(?:i|you|we)|has|was|were|is|are|am\s+i)\b/;

/** Everything up to the reflect verb: "Take some time to write a short reflection about" → the topic follows. */
export const REFLECT_LEAD_RE =
  /^.*?\b(?:reflect(?:ing)?|reflections?|journal(?:ing|ling)?|look(?:ing)?\s+back|retrospective)\b(?:\s+(?:on|about|upon|of))?\s*/i;

/** "all day", "the whole day": the whole local day. */
export const ALL_DAY_RE = /\s*\b(?:all[\s-]day|the\s+whole\s+day|the\s+entire\s+day|full[\s-]day)\b/i;
/** "block off …": the whole named part of the day. */
export const BLOCK_RE = /\bblock(?:\s+(?:off|out))?\b/;
export const BLOCK_PART_OF_DAY_RE = /\bblock(?:\s+(?:off|out))?\s+(?:the\s+|my\s+|this\s+|tomorrow\s+|\w+day\s+)*(?:morning|afternoon|evening|night)\b/;
/** A verb of a statement ("the weather is nice today") rather than a request. */
export const STATEMENT_VERB_RE = /\b(?:is|are|was|were|it's|its|looks|seems)\b/;
