#!/usr/bin/env node
// LoCoMo evaluation (snap-research/locomo, ACL 2024): long conversations, questions, and the turns
// that hold each answer. Drives the real built daemon through its public API (temp home, port 0):
// one user per conversation, one trace per dialogue turn, every question of categories 1–5 as a
// query in each mode (limit 50), and prints evidence recall@k per question, averaged, per mode ×
// category, beside the DRAGON and BM25 rows of the paper and the issue.
//   npm run eval -- locomo --data PATH [--half dev|held-out] [--modes hybrid,keyword] [--dump FILE]
// PATH (or KAIROS_LOCOMO) is `locomo10.json` or a folder of per-conversation files. Tuning looks at
// the dev half only (the default); the held-out half is judged elsewhere.

import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { evidenceIds, HALVES, loadConversations, locateData, turnsToTraces } from './_locomo-data.mjs';
import { createTable, formatTable, recallAtK } from './_locomo-score.mjs';
import { spawnDaemon, waitForModel } from './search.mjs';

const MODES = ['hybrid', 'keyword', 'semantic'];
const LIMIT = 50;
const PUSH_BATCH = 1000;

/** A user of its own for one conversation (users scope the search statistics), and its token. */
async function createUser(d, conv) {
  const email = `${conv.id}@locomo.invalid`;
  const password = `locomo-eval-${conv.id}`;
  await d.api('POST', '/user/register', { email, password, display_name: conv.id });
  const { token } = await d.api('POST', '/user/login', { email, password });
  return async (method, path, body) => {
    const res = await fetch(d.base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = await res.json().catch(() => undefined);
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

export async function run(argv = process.argv.slice(2)) {
  const opt = (name) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const given = opt('data') ?? process.env.KAIROS_LOCOMO;
  const path = given && locateData(resolve(given));
  if (!path) {
    console.log(
      `locomo eval: skipped, no LoCoMo data (give --data PATH or KAIROS_LOCOMO: locomo10.json or its folder)${given ? `; nothing usable at ${given}` : ''}`,
    );
    return { name: 'locomo', skipped: true };
  }
  const half = opt('half') ?? 'dev';
  if (!HALVES[half]) throw new Error(`--half is dev or held-out, not ${half}`);
  const modes = opt('modes')?.split(',') ?? MODES;
  const convs = loadConversations(path).filter((c) => HALVES[half].includes(c.id));
  const d = await spawnDaemon();
  const table = createTable();
  const dump = [];
  try {
    const embeddings = await waitForModel(d.api);
    let turns = 0;
    let questions = 0;
    for (const conv of convs) {
      const api = await createUser(d, conv);
      const { traces, ids } = turnsToTraces(conv);
      const uidToTurn = new Map();
      for (let i = 0; i < traces.length; i += PUSH_BATCH) {
        const { saved } = await api('POST', '/memory/push', { traces: traces.slice(i, i + PUSH_BATCH) });
        saved.forEach((s, j) => uidToTurn.set(s.uid, ids[i + j]));
      }
      turns += traces.length;
      for (const qa of conv.qa) {
        const relevant = evidenceIds(qa);
        if (!relevant.length || !(qa.category >= 1 && qa.category <= 5)) continue;
        questions++;
        for (const mode of modes) {
          const r = await api('POST', '/memory/search', { query: qa.question, mode, limit: LIMIT });
          if (r.mode_used !== mode) throw new Error(`${mode} search answered ${r.mode_used}: ${r.embeddings?.fallback_reason}`);
          const ranked = r.results.map((x) => uidToTurn.get(x.uid));
          const recalls = recallAtK(ranked, relevant);
          table.add(mode, qa.category, recalls);
          dump.push({ conv: conv.id, mode, category: qa.category, question: qa.question, relevant, ranked, scores: r.results.map((x) => x.score), recalls });
        }
      }
    }
    console.log(
      `locomo eval (${half} half: ${convs.map((c) => c.id).join(' ')}): ${turns} turns, ${questions} questions, limit ${LIMIT}; embeddings ${embeddings.provider} ${embeddings.model}`,
    );
    for (const line of formatTable(table, modes)) console.log(line);
    const dumpFile = opt('dump');
    if (dumpFile) writeFileSync(dumpFile, dump.map((x) => JSON.stringify(x)).join('\n'));
    const h = table.mean('hybrid', 'all');
    return { name: 'locomo', half, hybrid: h };
  } finally {
    await d.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
