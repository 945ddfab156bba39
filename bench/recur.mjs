// Recurrence limits benchmark (issue 14): hostile rules and listings against a real daemon while
// a client probes /health. Reports the worst /health round trip (what a stalled event loop shows
// as), the slowest hostile request, and the worst gap of the daemon's own event-loop timer during
// each (/debug/event-loop: `hold` leaves out time the daemon waited for a CPU on a busy machine).
// The goal is 100 ms of hold; before the limits, one request held it 61 s, another for good.
//
//   node bench/recur.mjs            (after `npm run build`)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loopGap, startDaemon } from './_daemon.mjs';

const range = (n) => Array.from({ length: n }, (_, i) => i).join(',');

/** The hostile requests: each was a hang, a 500, a minute-long stall or a huge answer before. */
function hostile() {
  const create = (body) => ['POST', '/calendar/create', { title: 'bench', timezone: 'UTC', ...body }];
  const list = (s, e) => ['GET', `/calendar/events?start=${s}&end=${e}`];
  return [
    [
      'one a second (HOURLY;BYMINUTE×BYSECOND)',
      create({ scheduled_for: '2031-01-01T00:00:00Z', rrule: `FREQ=HOURLY;BYMINUTE=${range(60)};BYSECOND=${range(60)}` }),
    ],
    ['DAILY;BYMONTHDAY=-1,-2 (hung ical.js)', create({ scheduled_for: '2031-01-30T09:00:00Z', rrule: 'FREQ=DAILY;BYMONTHDAY=-1,-2;COUNT=5' })],
    ['never matches (MONTHLY;BYDAY=1MO;BYMONTHDAY=15)', create({ scheduled_for: '2031-01-01T09:00:00Z', rrule: 'FREQ=MONTHLY;BYDAY=1MO;BYMONTHDAY=15' })],
    ['never matches (HOURLY;BYMONTH=2;BYMONTHDAY=30)', create({ scheduled_for: '2031-01-01T09:00:00Z', rrule: 'FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30' })],
    ['HOURLY;COUNT=999999 (conflict check)', create({ scheduled_for: '2031-01-01T00:00:00Z', rrule: 'FREQ=HOURLY;COUNT=999999', duration_minutes: 10 })],
    ['HOURLY endless', create({ scheduled_for: '2031-01-01T00:20:00Z', rrule: 'FREQ=HOURLY', duration_minutes: 10 })],
    [
      '5,000 RDATEs',
      create({
        scheduled_for: '2031-01-01T09:00:00Z',
        rdates: Array.from({ length: 5000 }, (_, i) => new Date(Date.UTC(2031, 0, 1, 9) + i * 3_600_000).toISOString()),
      }),
    ],
    ['year listing over the item cap', list('2031-01-01T00:00:00Z', '2032-01-01T00:00:00Z')],
    ['month listing', list('2031-03-01T00:00:00Z', '2031-04-01T00:00:00Z')],
  ];
}

export async function benchRecur({ rounds = 3, log = console.log } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'kairos-bench-recur-'));
  const d = await startDaemon(home, { DEBUG: 'true' });
  try {
    const call = async (method, path, body) => {
      const t = performance.now();
      const res = await fetch(d.base + path, {
        method,
        headers: { authorization: `Bearer ${d.key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
      await res.arrayBuffer();
      return { status: res.status, ms: performance.now() - t };
    };
    await call('GET', '/health');
    let worstHealth = 0;
    let stop = false;
    const probe = (async () => {
      while (!stop) {
        const r = await call('GET', '/health');
        worstHealth = Math.max(worstHealth, r.ms);
        await new Promise((ok) => setTimeout(ok, 5));
      }
    })();
    const worstBy = new Map();
    const holdBy = new Map();
    await loopGap(d);
    for (let i = 0; i < rounds; i++)
      for (const [name, [method, path, body]] of hostile()) {
        await loopGap(d);
        const r = await call(method, path, body);
        const g = await loopGap(d);
        if (r.status >= 500) throw new Error(`${name}: HTTP ${r.status}`);
        worstBy.set(name, Math.max(worstBy.get(name) ?? 0, r.ms));
        const h = holdBy.get(name) ?? { gap: 0, hold: 0 };
        holdBy.set(name, { gap: Math.max(h.gap, g.gap), hold: Math.max(h.hold, g.hold) });
      }
    stop = true;
    await probe;
    const [slowName, slowMs] = [...worstBy].sort((a, b) => b[1] - a[1])[0];
    const [holdName, worst] = [...holdBy].sort((a, b) => b[1].hold - a[1].hold)[0];
    log(
      `recur: worst /health round trip ${worstHealth.toFixed(0)} ms; slowest hostile request ${slowMs.toFixed(0)} ms (${slowName}); event loop held at most ${worst.hold} ms (gap ${worst.gap} ms, ${holdName})`,
    );
    return [
      { name: 'worst /health round trip during hostile rules', value: worstHealth, unit: 'ms', goal: '≤ 100 ms hold' },
      { name: 'worst event-loop hold (daemon timer) during hostile rules', value: worst.hold, unit: 'ms', goal: '≤ 100 ms' },
      { name: 'worst event-loop gap (daemon timer, CPU waits included)', value: worst.gap, unit: 'ms' },
      { name: 'worst hold / 100 ms bound', value: worst.hold / 100, unit: 'x', goal: '≤ 1' },
      ...[...worstBy].map(([name, ms]) => ({ name: `hostile: ${name}`, value: ms, unit: 'ms' })),
      ...[...holdBy].map(([name, g]) => ({ name: `hold: ${name}`, value: g.hold, unit: 'ms' })),
    ];
  } finally {
    d.child.kill('SIGTERM');
    await new Promise((r) => d.child.once('exit', r));
    rmSync(home, { recursive: true, force: true });
  }
}

export const run = benchRecur;

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchRecur();
