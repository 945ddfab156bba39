#!/usr/bin/env node
// Planner evaluation: runs the cases of ../shared/fixtures/planner/dev.jsonl and of eval/cases/
// (or --cases FILE) through a real daemon the way the fixture README describes, scores them, and
// prints one line per file:
//   planner 38/40 = 95.0% (dev.jsonl)
// Options: --cases FILE, --verbose (print every failing case), --direct (call the planner core
// in-process instead of a daemon: fast, for development), --only ID[,ID].
// Needs a build (npm run build): it runs bin/kairos.js and, with --direct, dist/.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const option = (name) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
// Without --cases: the shared dev set, then the project's own sets in eval/cases/.
const CASE_FILES = option('cases')
  ? [resolve(option('cases'))]
  : [
      join(ROOT, '..', 'shared', 'fixtures', 'planner', 'dev.jsonl'),
      ...readdirSync(join(ROOT, 'eval', 'cases'))
        .filter((f) => f.endsWith('.jsonl'))
        .sort()
        .map((f) => join(ROOT, 'eval', 'cases', f)),
    ];
const VERBOSE = flag('verbose');
const ONLY = option('only')?.split(',');

for (const f of CASE_FILES) {
  if (existsSync(f)) continue;
  console.error(`planner eval: no cases at ${f} (use --cases FILE)`);
  process.exit(2);
}
if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
  console.error('planner eval: build first (npm run build)');
  process.exit(2);
}

const readCases = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l))
    .filter((c) => !ONLY || ONLY.includes(c.id));

// ------------------------------------------------------------------ time helpers

const { fromZoned, formatInZone, toZoned } = await import(join(ROOT, 'dist', 'time', 'zoned-time.js'));

/** The case's `now` (local wall time) as an instant. */
function caseNow(c) {
  const [d, t] = c.now.split('T');
  const [year, month, day] = d.split('-').map(Number);
  const [hour, minute, second = 0] = t.split(':').map(Number);
  return fromZoned({ year, month, day, hour, minute, second }, c.timezone);
}

const WEEKDAY_OF = { mon: 'MO', tue: 'TU', wed: 'WE', thu: 'TH', fri: 'FR', sat: 'SA', sun: 'SU' };

// ------------------------------------------------------------------ reading produced items

/** A produced item in the README's liberal reading: kind, title, start, durations, event uid. */
function readItem(raw) {
  const nested = raw.action ?? raw.event ?? raw.trace ?? {};
  const get = (k) => raw[k] ?? nested[k];
  let kind = raw.action_kind ?? (typeof raw.action === 'string' ? raw.action : undefined) ?? nested.kind;
  const k = raw.kind;
  if (k === 'add_event' || k === 'reflect' || k === 'reschedule_event') kind = kind ?? k;
  if (!kind && k === 'event') kind = get('event_uid') ? 'reschedule_event' : 'add_event';
  if (!kind && k === 'trace') kind = get('type') === 'reflection' ? 'reflect' : undefined;
  if (!['add_event', 'reflect', 'reschedule_event'].includes(kind)) return undefined;
  const startText = get('scheduled_for') ?? get('start') ?? (kind === 'reflect' ? get('timestamp') : undefined);
  const start = startText ? Date.parse(startText) : NaN;
  const endText = get('end');
  const durations = [get('duration_minutes'), get('estimate_minutes'), endText ? (Date.parse(endText) - start) / 60000 : undefined].filter(
    (v) => typeof v === 'number' && Number.isFinite(v),
  );
  return { kind, title: String(get('title') ?? ''), start, durations, event_uid: get('event_uid') };
}

// ------------------------------------------------------------------ scoring

function satisfies(item, exp, c, uidMap) {
  if (item.kind !== exp.kind) return false;
  const t = item.title.toLowerCase();
  if (exp.title_includes && !exp.title_includes.every((s) => t.includes(s.toLowerCase()))) return false;
  if (!Number.isFinite(item.start)) return false;
  if (exp.start && Math.abs(item.start - Date.parse(exp.start)) > 59_000) return false;
  if (exp.window && !(item.start >= Date.parse(exp.window.from) - 59_000 && item.start <= Date.parse(exp.window.to) + 59_000)) return false;
  if (exp.duration_minutes !== undefined && !item.durations.includes(exp.duration_minutes)) return false;
  if (exp.duration_range && !item.durations.some((d) => d >= exp.duration_range[0] && d <= exp.duration_range[1])) return false;
  if (exp.event_uid && item.event_uid !== uidMap[exp.event_uid]) return false;
  if (exp.local_time) {
    const z = toZoned(item.start, c.timezone);
    if (`${String(z.hour).padStart(2, '0')}:${String(z.minute).padStart(2, '0')}` !== exp.local_time) return false;
  }
  if (exp.weekdays && !exp.weekdays.includes(WEEKDAY_OF[toZoned(item.start, c.timezone).weekday])) return false;
  if (exp.free) {
    const dur = item.durations[0] ?? 0;
    const end = item.start + dur * 60000;
    const moved = exp.event_uid;
    for (const e of c.events) {
      if (e.uid === moved) continue;
      const s = Date.parse(e.scheduled_for);
      const en = s + e.duration_minutes * 60000;
      if (item.start < en && s < end) return false;
    }
  }
  return true;
}

/** One-to-one assignment of produced items to expectations (count_range: a..b items each). */
function passes(items, expected, c, uidMap) {
  const ranges = expected.map((e) => e.count_range ?? [1, 1]);
  const taken = expected.map(() => 0);
  const assign = (i) => {
    if (i === items.length) return ranges.every(([a, b], j) => taken[j] >= a && taken[j] <= b);
    for (let j = 0; j < expected.length; j++) {
      if (taken[j] >= ranges[j][1] || !satisfies(items[i], expected[j], c, uidMap)) continue;
      taken[j]++;
      if (assign(i + 1)) return true;
      taken[j]--;
    }
    return false;
  };
  return assign(0);
}

// ------------------------------------------------------------------ runners

async function directRunner() {
  const { planPrompt } = await import(join(ROOT, 'dist', 'domain', 'planner', 'deterministic-planner.js'));
  const { defaultSettings } = await import(join(ROOT, 'dist', 'domain', 'tempo', 'profile.js'));
  return {
    async run(c) {
      const s = defaultSettings();
      const profile = {
        ...s,
        ...c.profile,
        time_ranges: { ...s.time_ranges, ...(c.profile.time_ranges ?? {}) },
      };
      // All-day events mark a day without filling its hours (the daemon's busy time leaves them out).
      const calendar = c.events
        .filter((e) => !e.all_day)
        .map((e) => ({
          uid: e.uid,
          title: e.title,
          start: Date.parse(e.scheduled_for),
          end: Date.parse(e.scheduled_for) + e.duration_minutes * 60000,
        }));
      const out = planPrompt({ prompt: c.prompt, now: caseNow(c), timezone: c.timezone, profile, calendar });
      return { items: out.actions, uidMap: Object.fromEntries(c.events.map((e) => [e.uid, e.uid])), reply: out.reply };
    },
    async close() {},
  };
}

async function daemonRunner() {
  const home = mkdtempSync(join(tmpdir(), 'kairos-eval-'));
  const env = { ...process.env, KAIROS_HOME: home, KAIROS_RATE_LIMIT: '0', NO_COLOR: '1' };
  for (const k of Object.keys(env)) if ((k.startsWith('KAIROS_') && !['KAIROS_HOME', 'KAIROS_RATE_LIMIT'].includes(k)) || k === 'DEBUG') delete env[k];
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'kairos.js'), 'daemon', 'run', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const port = await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`daemon did not start: ${err}`)), 15000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on https?:\/\/[^\n]*:(\d+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(Number(m[1]));
      }
    });
    child.once('exit', (code) => fail(new Error(`daemon exited (${code}): ${err}`)));
  });
  const creds = JSON.parse(readFileSync(join(home, 'credentials.json'), 'utf8'));
  const api = async (method, path, body) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { authorization: `Bearer ${creds.api_key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text };
  };
  const setKeys = new Set();
  return {
    async run(c) {
      await api('PATCH', '/user/update', { user_id: creds.user_id, updates: { timezone: c.timezone } });
      const prefs = { ...c.profile };
      for (const k of setKeys) if (!(k in prefs)) prefs[k] = k === 'blocked' ? [] : {};
      for (const k of Object.keys(c.profile)) setKeys.add(k);
      const adj = await api('POST', '/tempo/adjust', { user_id: creds.user_id, preferences: prefs });
      if (adj.status !== 200) throw new Error(`tempo/adjust: ${adj.text}`);
      const uidMap = {};
      for (const e of c.events) {
        const r = await api('POST', '/calendar/create', {
          title: e.title,
          ...(e.all_day ? { scheduled_for: e.scheduled_for.slice(0, 10), all_day: true } : { scheduled_for: e.scheduled_for }),
          duration_minutes: e.duration_minutes,
        });
        if (r.status !== 201) throw new Error(`calendar/create: ${r.text}`);
        uidMap[e.uid] = r.json.uid;
      }
      const now = formatInZone(caseNow(c), c.timezone);
      const body = { prompt: c.prompt, context: { now, timezone: c.timezone } };
      let items = [];
      let reply = '';
      const pv = await api('POST', '/chat/plan-preview', body);
      if (pv.status === 200 && Array.isArray(pv.json?.items)) {
        items = pv.json.items;
        reply = pv.json.reply ?? '';
      }
      if (!items.length) {
        const p = await api('POST', '/agent/plan', body);
        if (p.status === 201) {
          items = p.json.actions ?? [];
          await api('POST', '/agent/reject', { plan_id: p.json.plan_id, reason: 'eval' });
        } else reply ||= p.json?.error?.message ?? p.text;
      }
      for (const uid of Object.values(uidMap)) await api('DELETE', `/calendar/remove?uid=${encodeURIComponent(uid)}`);
      return { items, uidMap, reply };
    },
    async close() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(home, { recursive: true, force: true });
    },
  };
}

const runner = flag('direct') ? await directRunner() : await daemonRunner();
try {
  for (const file of CASE_FILES) {
    const cases = readCases(file);
    let passed = 0;
    for (const c of cases) {
      let ok = false;
      let got;
      try {
        got = await runner.run(c);
        const items = got.items.map(readItem).filter(Boolean);
        ok = passes(items, c.expect.actions, c, got.uidMap);
      } catch (e) {
        got = { items: [], reply: `error: ${e.message}` };
      }
      if (ok) passed++;
      else if (VERBOSE) {
        console.log(`FAIL ${c.id} ${JSON.stringify(c.prompt)}`);
        console.log(`  expected ${JSON.stringify(c.expect.actions)}`);
        for (const it of got.items) {
          const r = readItem(it);
          console.log(
            `  got ${r ? `${r.kind} ${JSON.stringify(r.title)} ${Number.isFinite(r.start) ? formatInZone(r.start, c.timezone) : '?'} ${r.durations.join('/')}min${r.event_uid ? ` uid=${r.event_uid}` : ''}` : JSON.stringify(it)}`,
          );
        }
        if (!got.items.length) console.log(`  reply: ${got.reply}`);
      }
    }
    const pct = cases.length ? ((passed / cases.length) * 100).toFixed(1) : '0.0';
    console.log(`planner ${passed}/${cases.length} = ${pct}% (${basename(file)})`);
  }
} finally {
  await runner.close();
}
