// Calendar benchmark: import a 10,000-event .ics through the API and export 10,000 events, next to
// node-ical's bare parse of the same file (the goal: import within 2x of that parse), and the
// longest the daemon's event loop was held during the import (issue 14: at most 100 ms).
//
//   node bench/calendar.mjs            (after `npm run build`)
//   import { benchCalendar } from './calendar.mjs'; await benchCalendar({ events: 10000 })
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loopGap, startDaemon } from './_daemon.mjs';

const require = createRequire(import.meta.url);

/** A realistic mix: one-off UTC events, zoned events, weekly series with EXDATEs, all-day days. */
export function makeIcs(n) {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//kairos//bench//EN'];
  const zones = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo'];
  const pad = (x) => String(x).padStart(2, '0');
  for (let i = 0; i < n; i++) {
    const day = new Date(Date.UTC(2031, 0, 1) + (i % 730) * 86_400_000);
    const ymd = `${day.getUTCFullYear()}${pad(day.getUTCMonth() + 1)}${pad(day.getUTCDate())}`;
    const hh = pad(8 + (i % 10));
    lines.push('BEGIN:VEVENT', `UID:bench-${i}@kairos`, 'DTSTAMP:20310101T000000Z', `SUMMARY:Bench event ${i} — planning, review; notes`);
    if (i % 10 === 0) lines.push(`DTSTART;VALUE=DATE:${ymd}`, 'DURATION:P1D');
    else if (i % 10 < 4) {
      const tz = zones[i % 3];
      lines.push(`DTSTART;TZID=${tz}:${ymd}T${hh}0000`, `DTEND;TZID=${tz}:${ymd}T${hh}4500`);
      if (i % 10 === 1) lines.push('RRULE:FREQ=WEEKLY;COUNT=20', `EXDATE;TZID=${tz}:${ymd}T${hh}0000`);
    } else lines.push(`DTSTART:${ymd}T${hh}0000Z`, `DTEND:${ymd}T${hh}3000Z`);
    if (i % 7 === 0) lines.push(`DESCRIPTION:A longer description of event ${i}\\, long enough to be folded by any writer that respects the 75 octet limit.`);
    lines.push('END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return lines.join('\r\n') + '\r\n';
}

const secs = (ms) => Math.round(ms) / 1000;

export async function benchCalendar({ events = 10_000, log = console.log } = {}) {
  const ics = makeIcs(events);
  const nodeIcal = require('node-ical');
  nodeIcal.sync.parseICS(makeIcs(200)); // warm up the parser's code paths
  let t = performance.now();
  nodeIcal.sync.parseICS(ics);
  const parseMs = performance.now() - t;

  const home = mkdtempSync(join(tmpdir(), 'kairos-bench-cal-'));
  const d = await startDaemon(home, { DEBUG: 'true' });
  try {
    const headers = { authorization: `Bearer ${d.key}` };
    await loopGap(d);
    t = performance.now();
    const res = await fetch(`${d.base}/calendar/import`, { method: 'POST', headers: { ...headers, 'content-type': 'text/calendar' }, body: ics });
    const report = await res.json();
    const importMs = performance.now() - t;
    const importLoop = await loopGap(d);
    if (res.status !== 200 || report.imported !== events) throw new Error(`import failed: HTTP ${res.status} ${JSON.stringify(report).slice(0, 300)}`);

    t = performance.now();
    const again = await (
      await fetch(`${d.base}/calendar/import`, { method: 'POST', headers: { ...headers, 'content-type': 'text/calendar' }, body: ics })
    ).json();
    const reimportMs = performance.now() - t;
    if (again.skipped !== events) throw new Error(`re-import changed something: ${JSON.stringify(again).slice(0, 200)}`);

    t = performance.now();
    const ex = await fetch(`${d.base}/calendar/export.ics`, { headers });
    const text = await ex.text();
    const exportMs = performance.now() - t;
    const exported = (text.match(/^BEGIN:VEVENT\r$/gm) ?? []).length;
    if (exported !== events) throw new Error(`export has ${exported} events, expected ${events}`);

    const result = {
      events,
      bytes: Buffer.byteLength(ics),
      node_ical_parse_s: secs(parseMs),
      import_s: secs(importMs),
      import_events_per_s: Math.round(events / (importMs / 1000)),
      import_vs_parse: Math.round((importMs / parseMs) * 100) / 100,
      reimport_unchanged_s: secs(reimportMs),
      export_s: secs(exportMs),
      export_events_per_s: Math.round(events / (exportMs / 1000)),
      goal_import_within_2x_parse: importMs <= 2 * parseMs,
      import_loop_hold_ms: importLoop.hold,
      import_loop_gap_ms: importLoop.gap,
      import_hold_vs_100ms: Math.round(importLoop.hold) / 100,
    };
    log(
      `calendar: node-ical parse ${result.node_ical_parse_s} s; import ${result.import_s} s (${result.import_events_per_s} events/s, ${result.import_vs_parse}x parse${result.goal_import_within_2x_parse ? '' : ' — over the 2x goal'}); event loop held at most ${result.import_loop_hold_ms} ms during the import (gap ${result.import_loop_gap_ms} ms); re-import ${result.reimport_unchanged_s} s; export ${result.export_s} s (${result.export_events_per_s} events/s)`,
    );
    return result;
  } finally {
    d.child.kill('SIGTERM');
    await new Promise((r) => d.child.once('exit', r));
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await benchCalendar({ events: Number(process.env.BENCH_EVENTS ?? 10_000) });
  console.log(JSON.stringify(r, null, 2));
}
