import type { ApiClient } from '../../client/http.js';
import { AppError } from '../../errors.js';
import { allEvents } from './all-events.js';
import { allPlans } from './all-plans.js';

/**
 * What an id argument names; `plan-or-task` is `execute`'s target (a plan only when it starts with
 * pl_), `plan-or-trace` `feedback`'s (a plan when it starts with pl_, else a trace).
 */
export type IdKind = 'plan' | 'trace' | 'event' | 'key' | 'subscription' | 'plan-or-task' | 'plan-or-trace';

type OneKind = Exclude<IdKind, 'plan-or-task' | 'plan-or-trace'>;
const PREFIX: Record<OneKind, string> = { plan: 'pl', trace: 'tr', event: 'ev', key: 'key', subscription: 'sub' };
/** A whole generated id (kind, then 26 characters of ULID): nothing to resolve. */
const WHOLE = /^[a-z]+_[0-9a-z]{26}$/;

interface Candidate {
  id: string;
  label: string;
}

/** Every id of a kind the key may see, with a few words each for an ambiguity message. */
async function candidates(client: ApiClient, kind: OneKind): Promise<Candidate[]> {
  if (kind === 'plan') {
    const { plans } = await allPlans(client, { status: 'all' });
    return plans.map((p) => ({ id: p.plan_id, label: `${p.status}, task ${p.task_id}${p.prompt ? `: “${p.prompt}”` : ''}` }));
  }
  if (kind === 'event') {
    // Each series once, as stored, with no bounds: every event there is.
    const { events } = await allEvents(client, { expand: 'false' });
    return events.map((e) => ({ id: e.uid, label: `“${e.title}” ${e.scheduled_for}` }));
  }
  if (kind === 'subscription') {
    const { subscriptions } = await client.call('GET /calendar/subscriptions');
    return subscriptions.map((s) => ({ id: s.id, label: `${s.name}: ${s.url}` }));
  }
  if (kind === 'key') {
    const { keys } = await client.call('GET /auth/keys');
    return keys.map((k) => ({ id: k.id, label: `${k.name}${k.revoked_at ? ' (revoked)' : ''}` }));
  }
  const out: Candidate[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.call('GET /memory/pull', { query: { limit: 1000, include_expired: 'true', cursor } });
    for (const t of page.traces) out.push({ id: t.uid, label: `${t.type}, task ${t.task_id}: ${t.content.replace(/\s+/g, ' ').slice(0, 50)}` });
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return out;
}

/** Whether a trace uid exists as given (custom uids such as `my-note-1` are not ULIDs). */
async function traceExists(client: ApiClient, uid: string): Promise<boolean> {
  try {
    await client.call('GET /memory/history', { query: { uid } });
    return true;
  } catch (e) {
    if (e instanceof AppError && e.status === 404) return false;
    throw e;
  }
}

/**
 * The whole id that `given` names, as git resolves a short hash: the id itself, or the one id of
 * that kind it is a prefix of (with or without the kind's `pl_`/`tr_`/`ev_`/`key_`). A prefix of
 * several ids is a usage error (exit 2) listing them; one of none is returned as given, so the
 * daemon's own "not found" (exit 5) answers.
 */
export async function resolveId(client: ApiClient, kind: IdKind, given: string): Promise<string> {
  if (kind === 'plan-or-task') {
    if (!given.startsWith('pl_')) return given;
    kind = 'plan';
  }
  if (kind === 'plan-or-trace') kind = given.startsWith('pl_') ? 'plan' : 'trace';
  if (WHOLE.test(given)) return given;
  if (kind === 'trace' && (await traceExists(client, given))) return given;
  const all = await candidates(client, kind);
  const exact = all.find((c) => c.id === given);
  if (exact) return exact.id;
  const withKind = given.includes('_') ? given : `${PREFIX[kind]}_${given}`;
  const matches = all.filter((c) => c.id.startsWith(given) || c.id.startsWith(withKind));
  if (matches.length === 1) return matches[0]!.id;
  if (matches.length > 1) {
    throw new AppError(400, 'usage', `"${given}" is the start of ${matches.length} ${kind} ids; give more of it:`, {
      details: matches.slice(0, 20).map((m) => ({ path: m.id, message: m.label })),
    });
  }
  return given;
}

/**
 * The shortest prefix of each id (at least the kind and `min` characters) that tells it apart from
 * every other id in `ids`, as git shows abbreviated hashes: `pl_01jq3k5m` for
 * `pl_01jq3k5mzr4d8a1bq6wvx0c2ke`. Ids that are not generated ULIDs (custom trace uids) stay whole.
 */
export function shortIds(ids: readonly string[], min = 6): Map<string, string> {
  const out = new Map<string, string>();
  const sorted = [...new Set(ids)].sort();
  sorted.forEach((id, i) => {
    if (!WHOLE.test(id)) {
      out.set(id, id);
      return;
    }
    const common = (other?: string) => {
      if (!other) return 0;
      let n = 0;
      while (n < id.length && id[n] === other[n]) n++;
      return n;
    };
    const start = id.indexOf('_') + 1;
    const len = Math.max(start + min, common(sorted[i - 1]) + 1, common(sorted[i + 1]) + 1);
    out.set(id, id.slice(0, Math.min(len, id.length)));
  });
  return out;
}
