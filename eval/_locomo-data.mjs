// Reading LoCoMo (snap-research/locomo) where the user keeps it: the public `data/locomo10.json`
// (a list of {sample_id, conversation: {speaker_a, session_N, session_N_date_time, …}, qa}) or a
// folder of per-conversation files (`26.json`: the conversation's keys at the top, with `qa`).
// Nothing of the data is copied into the project: it is read at run time only.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

/** The conversations tuning may look at; the other five are held out and judged elsewhere. */
export const HALVES = {
  dev: ['conv-26', 'conv-30', 'conv-41', 'conv-42', 'conv-43'],
  'held-out': ['conv-44', 'conv-47', 'conv-48', 'conv-49', 'conv-50'],
};

/** The paper's question categories: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial. */
export const CATEGORIES = [1, 2, 3, 4, 5];

/** Where the data is: `--data PATH`, else `KAIROS_LOCOMO`; undefined when neither exists. */
export function locateData(path) {
  if (!path || !existsSync(path)) return undefined;
  if (statSync(path).isFile()) return path;
  const json = join(path, 'locomo10.json');
  if (existsSync(json)) return json;
  return readdirSync(path).some((f) => /^\d+\.json$/.test(f)) ? path : undefined;
}

/** Every conversation as {id: 'conv-26', conversation, qa}. */
export function loadConversations(path) {
  if (statSync(path).isFile()) {
    return JSON.parse(readFileSync(path, 'utf8')).map((c) => ({ id: c.sample_id, conversation: c.conversation, qa: c.qa }));
  }
  return readdirSync(path)
    .filter((f) => /^\d+\.json$/.test(f))
    .sort()
    .map((f) => {
      const { qa, ...conversation } = JSON.parse(readFileSync(join(path, f), 'utf8'));
      return { id: `conv-${basename(f, '.json')}`, conversation, qa };
    });
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" → a Date in UTC (the data names no zone). */
export function parseSessionTime(text) {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(text ?? '');
  if (!m) return undefined;
  const month = MONTHS.indexOf(m[5].toLowerCase());
  if (month < 0) return undefined;
  const hour = (Number(m[1]) % 12) + (m[3].toLowerCase() === 'pm' ? 12 : 0);
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2])));
}

/**
 * One trace per dialogue turn: content "Speaker: text", the session's time as the trace's time
 * (plus the turn's index in seconds, so turns keep their order), speaker, session and date in
 * `fields`. Returns the traces and the turn id ("D1:3") of each.
 */
export function turnsToTraces(conv) {
  const c = conv.conversation;
  const sessions = Object.keys(c)
    .map((k) => /^session_(\d+)$/.exec(k)?.[1])
    .filter(Boolean)
    .map(Number)
    .sort((a, b) => a - b);
  const traces = [];
  const ids = [];
  for (const n of sessions) {
    const when = parseSessionTime(c[`session_${n}_date_time`]);
    c[`session_${n}`].forEach((turn, i) => {
      traces.push({
        type: 'observation',
        task_id: conv.id,
        content: `${turn.speaker}: ${turn.text}`,
        ...(when ? { timestamp: new Date(when.getTime() + i * 1000).toISOString() } : {}),
        fields: { speaker: turn.speaker, session: n, ...(when ? { date: c[`session_${n}_date_time`] } : {}) },
      });
      ids.push(turn.dia_id);
    });
  }
  return { traces, ids };
}

/** The evidence turn ids of a question ("D1:3"), however the data lists them ("D8:6; D9:17"). */
export function evidenceIds(qa) {
  return [...new Set((qa.evidence ?? []).flatMap((e) => String(e).match(/D\d+:\d+/g) ?? []))];
}
