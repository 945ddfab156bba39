// Scoring and printing of the LoCoMo evaluation: evidence recall@k per question, averaged per
// mode × category, the way the paper's RAG table counts it.

import { CATEGORIES } from './_locomo-data.mjs';

export const KS = [5, 10, 25, 50];

/**
 * Reference rows on all ten conversations, every question: the paper's DRAGON retriever over
 * dialogue turns, and a textbook BM25 (Porter stemmer, stop list) measured when the issue was filed.
 */
export const REFERENCE = [
  { name: 'DRAGON (paper, all 10)', r: [0.588, 0.675, 0.799, 0.848] },
  { name: 'BM25 (textbook, all 10)', r: [0.55, 0.63, 0.71, 0.76] },
];

/** Share of the relevant ids among the first k of the ranked list, for each k. */
export function recallAtK(ranked, relevant, ks = KS) {
  const rel = new Set(relevant);
  return ks.map((k) => ranked.slice(0, k).filter((id) => rel.has(id)).length / rel.size);
}

/** Sums of recall@k per mode and category ('all' included); `add` one question, `mean` to read. */
export function createTable() {
  const cells = {};
  return {
    add(mode, category, recalls) {
      for (const c of [category, 'all']) {
        const cell = ((cells[mode] ??= {})[c] ??= { sum: KS.map(() => 0), n: 0 });
        recalls.forEach((r, i) => (cell.sum[i] += r));
        cell.n++;
      }
    },
    mean(mode, category) {
      const cell = cells[mode]?.[category];
      return cell ? cell.sum.map((s) => s / cell.n) : undefined;
    },
    count(mode, category) {
      return cells[mode]?.[category]?.n ?? 0;
    },
  };
}

const f3 = (x) => (x === undefined ? '  -  ' : x.toFixed(3));

/** The table as text lines: one row per mode × category, the columns R@5 … R@50, then the references. */
export function formatTable(table, modes) {
  const lines = [`${'mode'.padEnd(9)} ${'category'.padEnd(16)} ${'n'.padStart(5)}  ${KS.map((k) => `R@${k}`.padStart(6)).join('')}`];
  const names = { 1: '1 multi-hop', 2: '2 temporal', 3: '3 open-domain', 4: '4 single-hop', 5: '5 adversarial', all: 'all' };
  for (const mode of modes) {
    for (const c of [...CATEGORIES, 'all']) {
      const m = table.mean(mode, c);
      if (!m) continue;
      lines.push(`${mode.padEnd(9)} ${names[c].padEnd(16)} ${String(table.count(mode, c)).padStart(5)}  ${m.map((x) => f3(x).padStart(6)).join('')}`);
    }
  }
  for (const ref of REFERENCE) lines.push(`${ref.name.padEnd(32)}  ${ref.r.map((x) => f3(x).padStart(6)).join('')}`);
  return lines;
}
