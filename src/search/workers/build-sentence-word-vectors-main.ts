/**
 * Child-process entry: `node build-sentence-word-vectors-main.js <word-vectors.bin> <source> <out.bin>`.
 * Runs every word of the built-in word list through the sentence encoder (a few minutes, once per
 * machine), shortens the vectors to SENTENCE_DIMS and writes them in the compact format, row for
 * row with the word list. In its own process: the encoder needs ~300 MB that the daemon should
 * not keep.
 */

import { readFileSync } from 'node:fs';
import { availableParallelism, setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { FILE_MODE } from '../../config/paths.js';
import { dieWithParent, reportProgress } from '../../platform/child-lifeline.js';
import { writeFileDurable } from '../../platform/durable-write.js';
import { ENCODER_DIMS, principalAxes, projectWords, SENTENCE_DIMS } from '../vectors/sentence-word-vectors.js';
import { decodeWordVectors, encodeWordVectors } from '../vectors/word-vectors-file.js';

dieWithParent();
const [input, source, out] = process.argv.slice(2);
if (!input || !source || !out) {
  process.stderr.write('usage: build-sentence-word-vectors-main <word-vectors.bin> <source> <out.bin>\n');
  process.exit(2);
}
// Minutes of arithmetic on every core: background work, so the user's own programs (and the
// daemon answering meanwhile) come first. Set before the workers start, which inherit it.
try {
  setPriority(10);
} catch {
  // Not allowed here: run at normal priority.
}
const words = decodeWordVectors(readFileSync(input)).words;
// One encoder per core (each ~300 MB): the work is pure arithmetic and splits evenly.
const workers = Math.max(1, Math.min(availableParallelism(), 4));
let done = 0;
let reported = 0;
// Interleaved, so each worker gets as many frequent (short) and rare (long) words as the others.
const parts = await Promise.all(
  Array.from({ length: workers }, (_, w) => {
    const mine = words.filter((_, i) => i % workers === w);
    return new Promise<Float32Array>((ok, fail) => {
      const worker = new Worker(new URL('./sentence-encoder-worker.js', import.meta.url), { workerData: { words: mine } });
      worker.on('message', (m: { vectors?: Float32Array; done?: number }) => {
        if (m.vectors) return ok(m.vectors);
        done += m.done ?? 0;
        // The encoder pass is nearly all of the time; the projection after it takes seconds.
        if (Date.now() - reported > 1000) {
          reported = Date.now();
          reportProgress((0.95 * done) / words.length);
        }
      });
      worker.once('error', fail);
      worker.once('exit', (code) => code !== 0 && fail(new Error(`sentence encoder worker exited with ${code}`)));
    });
  }),
);
const vectors = new Float32Array(words.length * ENCODER_DIMS);
for (let i = 0; i < words.length; i++) {
  const at = Math.floor(i / workers) * ENCODER_DIMS;
  vectors.set(parts[i % workers]!.subarray(at, at + ENCODER_DIMS), i * ENCODER_DIMS);
}
const axes = principalAxes(vectors, ENCODER_DIMS, SENTENCE_DIMS);
// Atomic and durable: a reader sees no file or the whole file, even with several converters
// racing, and a power loss never leaves a half-written model behind a complete name.
await writeFileDurable(out, encodeWordVectors(projectWords(words, vectors, ENCODER_DIMS, axes, source)), { mode: FILE_MODE });
