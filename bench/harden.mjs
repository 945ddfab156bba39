// What the daemon's defence against prototype pollution (src/daemon/harden.ts) costs the code that
// runs after it. The same work runs in child processes with and without hardenIntrinsics(),
// alternating, and each figure is the hardened median over the plain one (goal ≤ 1.1×):
//   - typed arrays: a loop that reads and writes a typed array (the search indexes' scoring,
//     postings and terms are such loops);
//   - keyword index: a KeywordIndex built from 20,000 traces of a dozen words.
// A frozen Object.prototype (as the daemon once had it) made the first 30× slower and the second
// about 2× (a start reading its keyword index at a million traces: 12–13 s against 8).
//
//   npm run bench -- harden
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const ROUNDS = Number(process.env.BENCH_HARDEN_ROUNDS ?? 7);
const GOAL = 1.1;

// Runs in the child: prints {typed, keyword} in ms.
const CHILD = `
const harden = process.argv[1] === '1';
const { hardenIntrinsics } = await import(${JSON.stringify(`${DIST}daemon/harden.js`)});
const { KeywordIndex } = await import(${JSON.stringify(`${DIST}search/indexes/keyword-index.js`)});
if (harden) hardenIntrinsics();
const u = new Uint32Array(1 << 16);
const loop = () => { for (let r = 0; r < 200; r++) for (let k = 0; k < u.length; k++) u[k] = u[k] + r; };
loop();
let t = performance.now();
loop();
const typed = performance.now() - t;
const words = Array.from({ length: 3000 }, (_, i) => 'w' + i.toString(36) + 'x' + (i * 7919).toString(36));
const now = new Date(0).toISOString();
const traces = Array.from({ length: 20000 }, (_, i) => ({
  uid: 'tr_' + String(i).padStart(8, '0'), user_id: 'u1', space_id: null, task_id: 'notes', type: 'observation',
  content: Array.from({ length: 12 }, (_, w) => words[(i * 13 + w * 101) % words.length]).join(' '),
  notes: null, tempo_tag: null, timestamp: now, created_at: now, updated_at: now,
}));
t = performance.now();
const index = new KeywordIndex();
for (const tr of traces) index.upsert(tr);
const keyword = performance.now() - t;
if (!index.search('u1', words[13]).length) throw new Error('the index found nothing');
console.log(JSON.stringify({ typed, keyword }));
`;

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

export async function run() {
  const runs = { 0: [], 1: [] };
  for (let i = 0; i < ROUNDS; i++)
    for (const h of ['0', '1']) {
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', CHILD, h], { encoding: 'utf8' });
      runs[h].push(JSON.parse(out.trim().split('\n').at(-1)));
    }
  const rows = [];
  for (const [key, name] of [
    ['typed', 'typed-array loop, hardened / plain'],
    ['keyword', 'keyword index of 20,000 traces, hardened / plain'],
  ]) {
    const plain = median(runs[0].map((r) => r[key]));
    const hardened = median(runs[1].map((r) => r[key]));
    rows.push({ name, value: hardened / plain, unit: `× (${hardened.toFixed(0)} / ${plain.toFixed(0)} ms)`, goal: `≤ ${GOAL}×` });
  }
  return rows;
}
