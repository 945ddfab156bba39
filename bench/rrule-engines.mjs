// RRULE engine comparison (issue 18): every vector of test/unit/domain/calendar/rrule-vectors.txt
// through kairos's own expander (dist/) and the candidates from npm, each in a worker thread so a
// rule that never returns is recorded as a hang instead of stopping the run. Candidates are not
// dependencies of kairos: install them in a scratch folder and point ENGINES_DIR at it.
//
//   mkdir /tmp/eng && cd /tmp/eng && npm i rrule-rust rrule-temporal temporal-polyfill rrule ical.js@2.2.1
//   npm run build && ENGINES_DIR=/tmp/eng node bench/rrule-engines.mjs
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { loadVectors } from '../test/unit/domain/calendar/rrule-vectors.mjs';

const ENGINES = ['kairos', 'rrule-rust', 'rrule-temporal', 'rrule', 'ical.js'];
const HANG_MS = 3000;

const pad = (n, w = 2) => String(n).padStart(w, '0');
/** A stamp as the vector file writes it, from wall-clock fields. */
const stamp = (d, date, z) =>
  date
    ? `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`
    : `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}${z ? 'Z' : ''}`;

/** How many instances to take: all of a finite rule (and a few to catch extras), the listed ones of an endless rule. */
const takeOf = (v) => (/(^|;)(COUNT|UNTIL)=/.test(v.rrule) ? v.expected.length + 5 : v.expected.length);
/** Whether the vector's instances are instants (Z) rather than wall times. */
const wantsUtc = (v) => v.expected.some((e) => e.endsWith('Z')) || (v.utc && !v.date);

async function engine(name, dir) {
  const req = createRequire(`${dir}/package.json`);
  const load = async (id) => import(pathToFileURL(req.resolve(id)).href);
  if (name === 'kairos') {
    const root = new URL('../dist/', import.meta.url);
    const { seriesIterator } = await import(new URL('domain/calendar/recurrence.js', root));
    const { canonicalRrule } = await import(new URL('time/rrule.js', root));
    const { instantOf, wallAt } = await import(new URL('time/zone-cache.js', root));
    return (v) => {
      const tz = v.tzid ?? 'UTC';
      const d = new Date(v.wall);
      const w = {
        year: d.getUTCFullYear(),
        month: d.getUTCMonth() + 1,
        day: d.getUTCDate(),
        hour: d.getUTCHours(),
        minute: d.getUTCMinutes(),
        second: d.getUTCSeconds(),
      };
      const it = seriesIterator({ key: v.name, start: instantOf(w, tz), tz, allDay: v.date, rrule: canonicalRrule(v.rrule) });
      const out = [];
      for (let t = it.next(), n = 0; t !== undefined && n < takeOf(v); t = it.next(), n++) {
        if (wantsUtc(v)) out.push(stamp(new Date(t), false, true));
        else {
          const x = wallAt(t, tz);
          out.push(stamp(new Date(Date.UTC(x.year, x.month - 1, x.day, x.hour, x.minute, x.second)), v.date, false));
        }
      }
      return out;
    };
  }
  if (name === 'rrule-rust') {
    const { RRuleSet } = await load('rrule-rust');
    return (v) => {
      const tz = v.tzid ?? 'UTC';
      const head = v.date ? `DTSTART;VALUE=DATE:${v.dtstart}` : `DTSTART;TZID=${tz}:${v.dtstart.replace(/Z$/, '')}`;
      const set = RRuleSet.fromString(`${head}\nRRULE:${v.rrule.replace(/;$/, '')}`);
      return set.all(takeOf(v)).map((d) => (wantsUtc(v) ? stamp(d.toDate(tz), false, true) : String(d).replace(/Z$/, '')));
    };
  }
  if (name === 'rrule-temporal') {
    const { Temporal } = await load('temporal-polyfill');
    globalThis.Temporal = Temporal;
    const { RRuleTemporal } = await load('rrule-temporal');
    return (v) => {
      const tz = v.tzid ?? 'UTC';
      const head = v.date ? `DTSTART;VALUE=DATE:${v.dtstart}` : `DTSTART;TZID=${tz}:${v.dtstart.replace(/Z$/, '')}`;
      const r = new RRuleTemporal({ rruleString: `${head}\nRRULE:${v.rrule.replace(/;$/, '')}` });
      const n = takeOf(v);
      return r
        .all((_, i) => i < n)
        .map((z) =>
          wantsUtc(v)
            ? stamp(new Date(z.epochMilliseconds), false, true)
            : stamp(new Date(Date.UTC(z.year, z.month - 1, z.day, z.hour, z.minute, z.second)), v.date, false),
        );
    };
  }
  if (name === 'rrule') {
    const mod = await load('rrule');
    const { rrulestr } = mod.default ?? mod;
    return (v) => {
      if (v.tzid) throw new Error('no zone support without luxon-style wrappers');
      const r = rrulestr(`DTSTART:${v.date ? `${v.dtstart}T000000` : v.dtstart.replace(/Z$/, '')}Z\nRRULE:${v.rrule.replace(/;$/, '')}`);
      const n = takeOf(v);
      return r.all((_, i) => i < n).map((d) => stamp(d, v.date, wantsUtc(v)));
    };
  }
  if (name === 'ical.js') {
    const mod = await load('ical.js');
    const ICAL = mod.default ?? mod;
    return (v) => {
      if (v.tzid) throw new Error('needs the VTIMEZONE');
      const s = v.dtstart;
      const start = v.date
        ? ICAL.Time.fromDateString(`${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`)
        : ICAL.Time.fromDateTimeString(
            `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}${v.utc ? 'Z' : ''}`,
          );
      const it = ICAL.Recur.fromString(v.rrule.replace(/;$/, '')).iterator(start);
      const out = [];
      for (let t = it.next(), n = 0; t && n < takeOf(v); t = it.next(), n++)
        out.push(stamp(new Date(Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second)), v.date, wantsUtc(v)));
      return out;
    };
  }
  throw new Error(name);
}

if (!isMainThread) {
  const { name, dir, from } = workerData;
  const run = await engine(name, dir);
  const vectors = loadVectors().filter((v) => !v.refused);
  for (let i = from; i < vectors.length; i++) {
    const v = vectors[i];
    parentPort.postMessage({ i, started: true });
    const t0 = performance.now();
    let got;
    let error;
    try {
      got = run(v);
    } catch (e) {
      error = String(e?.message ?? e).slice(0, 80);
    }
    // Speed: the same vector 20 more times (the engine's own caches may help every engine alike).
    let ms = performance.now() - t0;
    if (!error) {
      const t1 = performance.now();
      for (let k = 0; k < 20; k++) run(v);
      ms = (performance.now() - t1) / 20;
    }
    parentPort.postMessage({ i, got, error, ms });
  }
  parentPort.postMessage({ done: true });
} else {
  const dir = process.env.ENGINES_DIR ?? '/tmp/eng';
  const vectors = loadVectors().filter((v) => !v.refused);
  const rows = [];
  for (const name of ENGINES) {
    const results = new Array(vectors.length);
    let from = 0;
    while (from < vectors.length) {
      from = await new Promise((resolve) => {
        const w = new Worker(new URL(import.meta.url), { workerData: { name, dir, from } });
        let timer;
        let current = from;
        const arm = () => {
          clearTimeout(timer);
          timer = setTimeout(() => {
            results[current] = { error: 'hang' };
            w.terminate();
            resolve(current + 1);
          }, HANG_MS);
        };
        arm();
        w.on('message', (m) => {
          if (m.done) {
            clearTimeout(timer);
            w.terminate();
            resolve(vectors.length);
          } else if (m.started) {
            current = m.i;
            arm();
          } else results[m.i] = m;
        });
        w.on('error', (e) => {
          clearTimeout(timer);
          results[current] = { error: `worker: ${e.message}` };
          resolve(current + 1);
        });
      });
    }
    let right = 0;
    let hangs = 0;
    let throws = 0;
    let ms = 0;
    const wrong = [];
    vectors.forEach((v, i) => {
      const r = results[i] ?? { error: 'no result' };
      if (r.error === 'hang') hangs++;
      else if (r.error) throws++;
      const ok = !r.error && JSON.stringify(r.got) === JSON.stringify(v.sourceExpected ?? v.expected);
      const okKairos = !r.error && JSON.stringify(r.got) === JSON.stringify(v.expected);
      if (ok || okKairos) right++;
      else wrong.push(`${v.source.split(' ')[0]}: ${v.name}${r.error ? ` (${r.error})` : ''}`);
      ms += r.ms ?? 0;
    });
    rows.push({ name, right, total: vectors.length, hangs, throws, ms });
    console.log(`${name}: ${right}/${vectors.length} right, ${hangs} hang, ${throws} throw, ${ms.toFixed(1)} ms for one pass`);
    if (process.env.VERBOSE === name || process.env.VERBOSE === 'all') for (const w of wrong) console.log(`   ✗ ${w}`);
  }
}
