// `npm run bench`: runs every bench/*.mjs module (each exports `run()` or a default function that
// returns rows {name, value, unit, goal?} and/or prints its own lines) and prints one table.
import { readdirSync } from 'node:fs';

// Arguments starting with -- are options of the benches themselves (bench/perf.mjs: --sizes=, --duration=).
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const files = readdirSync(new URL('.', import.meta.url))
  .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs' && !f.startsWith('_'))
  .filter((f) => !only.length || only.some((o) => f.includes(o)))
  .sort();
const rows = [];
for (const f of files) {
  const mod = await import(new URL(f, import.meta.url));
  const fn = mod.run ?? mod.default ?? Object.entries(mod).find(([k, v]) => k.startsWith('bench') && typeof v === 'function')?.[1];
  if (typeof fn !== 'function') continue;
  console.error(`# ${f}`);
  const t = performance.now();
  const out = await fn();
  if (Array.isArray(out)) rows.push(...out.map((r) => ({ bench: f.replace(/\.mjs$/, ''), ...r })));
  console.error(`# ${f} done in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
if (rows.length) {
  const w = Math.max(...rows.map((r) => `${r.bench}: ${r.name}`.length));
  for (const r of rows) {
    const v = typeof r.value === 'number' ? (Math.abs(r.value) >= 100 ? r.value.toFixed(0) : r.value.toFixed(2)) : String(r.value);
    console.log(`${`${r.bench}: ${r.name}`.padEnd(w)}  ${v.padStart(10)} ${r.unit ?? ''}${r.goal ? `   (goal ${r.goal})` : ''}`);
  }
}
