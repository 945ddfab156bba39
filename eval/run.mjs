// `npm run eval`: runs every eval/*.mjs module (each exports `run()` printing its figures and
// returning {name, pass, total?, ...}) — the planner set, the search set.
import { readdirSync } from 'node:fs';

const only = process.argv.slice(2);
const files = readdirSync(new URL('.', import.meta.url))
  .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs' && !f.startsWith('_'))
  .filter((f) => !only.length || only.some((o) => f.includes(o)))
  .sort();
let failed = false;
for (const f of files) {
  const mod = await import(new URL(f, import.meta.url));
  const fn = mod.run ?? mod.default;
  if (typeof fn !== 'function') continue;
  console.log(`\n## ${f}`);
  const r = await fn();
  if (r && r.goalMet === false) failed = true;
}
process.exitCode = failed ? 1 : 0;
