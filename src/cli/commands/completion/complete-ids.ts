import { localUrl } from '../../../client/daemon-process.js';
import { request } from '../../../client/request.js';
import { trustedDaemonState } from '../../../client/trusted-daemon.js';
import { readCredentials } from '../../../config/credentials.js';
import { homePaths, resolveHome } from '../../../config/paths.js';
import { assertOwnHome } from '../../../config/paths-trust.js';
import type { EndpointResponse } from '../../../contracts/endpoints.js';
import { pidAlive } from '../../../platform/process.js';
import { wholeAnswer } from '../../../platform/whole-answer.js';
import type { ProgramContext } from '../../command-runtime.js';
import { shortIds } from '../../input/resolve-id.js';
import { visible } from '../../output/terminal-text.js';
import type { CompleteKind } from './id-kinds.js';

/**
 * The whole budget of one Tab: a daemon that does not answer by then (down, starting, busy) gets
 * no more time, and the shell offers nothing rather than hang. KAIROS_COMPLETE_TIMEOUT_MS changes
 * it (a daemon across a network, a loaded machine).
 */
export const BUDGET_MS = 400;

function budget(env: NodeJS.ProcessEnv): number {
  const ms = Number(env.KAIROS_COMPLETE_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : BUDGET_MS;
}
/** No shell menu needs more than this many ids. */
const MAX = 100;
const RECENT_DAYS = 30;

interface Candidate {
  id: string;
  about: string;
}

type Get = <T>(path: string) => Promise<T>;

// A shell shows these words on the terminal: made visible like any output.
const oneLine = (s: string, n = 60) => {
  const t = visible(s).replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};
/** An instant as the shell user's own clock shows it: `2026-11-26 09:00`. */
const local = (iso: string) => new Date(iso).toLocaleString('sv-SE', { dateStyle: 'short', timeStyle: 'short' });

const ORDER = ['proposed', 'edited', 'approved', 'executed', 'rejected'];

/** Plans awaiting a decision first, then the rest, newest first within each status. */
async function plans(get: Get, withTasks: boolean, status = 'all'): Promise<Candidate[]> {
  const { plans } = await wholeAnswer('plans', (cursor) =>
    get<EndpointResponse<'GET /agent/queue'>>(`/agent/queue?status=${status}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
  );
  plans.sort((a, b) => ORDER.indexOf(a.status) - ORDER.indexOf(b.status) || b.created_at.localeCompare(a.created_at));
  const out = plans.map((p) => ({ id: p.plan_id, about: oneLine(`${p.status}: ${p.prompt ?? p.actions.map((a) => a.title).join(', ')}`) }));
  if (withTasks) {
    // `execute` also takes a task: every approved plan of it runs.
    const approved = new Map<string, number>();
    for (const p of plans) if (p.status === 'approved') approved.set(p.task_id, (approved.get(p.task_id) ?? 0) + 1);
    for (const [task, n] of approved) out.push({ id: task, about: `task: ${n} approved plan${n === 1 ? '' : 's'}` });
  }
  return out;
}

/** Traces of the last 30 days, newest first. */
async function traces(get: Get): Promise<Candidate[]> {
  const since = new Date(Date.now() - RECENT_DAYS * 86_400_000).toISOString();
  const { traces } = await get<EndpointResponse<'GET /memory/pull'>>(`/memory/pull?limit=1000&start_time=${encodeURIComponent(since)}`);
  traces.sort((a, b) => b.timestamp.localeCompare(a.timestamp));
  return traces.map((t) => ({ id: t.uid, about: oneLine(`${t.type}: ${t.content}`) }));
}

/** Events of the next 30 days (the API's default range), soonest first, each series once. */
async function events(get: Get): Promise<Candidate[]> {
  const { events } = await get<EndpointResponse<'GET /calendar/events'>>('/calendar/events');
  const seen = new Map<string, Candidate>();
  for (const e of events) {
    const uid = e.occurrence_of ?? e.uid;
    if (!seen.has(uid)) seen.set(uid, { id: uid, about: oneLine(`${e.all_day ? e.scheduled_for.slice(0, 10) : local(e.scheduled_for)} ${e.title}`) });
  }
  return [...seen.values()];
}

async function keys(get: Get): Promise<Candidate[]> {
  const { keys } = await get<EndpointResponse<'GET /auth/keys'>>('/auth/keys');
  return keys.filter((k) => !k.revoked_at).map((k) => ({ id: k.id, about: oneLine(k.name) }));
}

async function subscriptions(get: Get): Promise<Candidate[]> {
  const { subscriptions } = await get<EndpointResponse<'GET /calendar/subscriptions'>>('/calendar/subscriptions');
  return subscriptions.map((s) => ({ id: s.id, about: oneLine(`${s.name}: ${s.url}`) }));
}

async function caldavAccounts(get: Get): Promise<Candidate[]> {
  const { accounts } = await get<EndpointResponse<'GET /calendar/sync/accounts'>>('/calendar/sync/accounts');
  return accounts.map((a) => ({ id: a.name, about: oneLine(`${a.username} at ${a.url}`) }));
}

/** The address of the daemon to ask, without starting one: KAIROS_URL, else the home's daemon.json if its process lives. */
async function daemonUrl(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (env.KAIROS_URL) return env.KAIROS_URL.replace(/\/+$/, '');
  const s = await trustedDaemonState(resolveHome(env), env);
  return s && pidAlive(s.pid) ? localUrl(s) : undefined;
}

/**
 * Print the ids of a kind that start with `prefix` (with or without the kind's `pl_`…), one per
 * line: the short id the listings show (the whole id once `prefix` is longer), a tab, a few words.
 * Prints nothing, and succeeds, when the daemon is down, refuses or is slower than the budget.
 */
export async function completeIds(ctx: ProgramContext, kind: CompleteKind, prefix: string): Promise<void> {
  const deadline = Date.now() + budget(ctx.env);
  let found: Candidate[];
  try {
    const base = await daemonUrl(ctx.env);
    if (!base) return;
    const home = resolveHome(ctx.env);
    if (!ctx.env.KAIROS_API_KEY) await assertOwnHome(home);
    const apiKey = ctx.env.KAIROS_API_KEY ?? (await readCredentials(homePaths(home).credentials))?.api_key;
    const get: Get = async (path) => {
      const timeoutMs = deadline - Date.now();
      if (timeoutMs <= 0) throw new Error('out of time');
      const headers: Record<string, string> = { accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) };
      const r = await request(new URL(base + path), { method: 'GET', headers, timeoutMs });
      if (r.status !== 200) throw new Error(`HTTP ${r.status}`);
      return JSON.parse(r.text);
    };
    if (kind === 'plan' || kind === 'plan-or-task') found = await plans(get, kind === 'plan-or-task');
    else if (kind === 'proposed-plan') found = await plans(get, false, 'proposed');
    else if (kind === 'trace') found = await traces(get);
    else if (kind === 'plan-or-trace') found = [...(await plans(get, false)), ...(await traces(get))];
    else if (kind === 'event') found = await events(get);
    else if (kind === 'key') found = await keys(get);
    else if (kind === 'subscription') found = await subscriptions(get);
    else found = await caldavAccounts(get);
  } catch {
    return; // Completion offers what it can; an error message would land in the middle of the command line.
  }
  const short = shortIds(found.map((c) => c.id));
  const lines: string[] = [];
  for (const c of found) {
    const kindPrefix = c.id.slice(0, c.id.indexOf('_') + 1);
    if (!c.id.startsWith(prefix) && !(kindPrefix && c.id.startsWith(kindPrefix + prefix))) continue;
    const s = short.get(c.id) ?? c.id;
    lines.push(`${prefix.length >= s.length ? c.id : s}\t${c.about}`);
    if (lines.length === MAX) break;
  }
  if (lines.length) ctx.streams.stdout.write(lines.join('\n') + '\n');
}
