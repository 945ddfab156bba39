// The embedding thread of a daemon (started by embed-worker.ts): the built-in model's sentence
// vectors of written traces and of queries, off the event loop that answers requests. The word
// tables arrive on SharedArrayBuffers (word-vectors-file.ts), so this thread holds no second copy
// of them; only the vocabulary's lookup table is its own.
import { parentPort, workerData } from 'node:worker_threads';
import { BuiltinEmbedder } from '../models/builtin-embedder.js';
import { MaxSim } from '../models/max-sim.js';
import type { WordVectors } from '../vectors/word-vectors-file.js';
import type { EmbedReply, EmbedRequest } from './embed-worker.js';

const { words, sentence } = workerData as { words: WordVectors; sentence?: WordVectors };
const embedder = new BuiltinEmbedder(words, sentence);
let maxSim: MaxSim | undefined;

/** Work between two looks at the thread's messages: a query waits at most about this long behind a batch. */
const TURN_MS = 5;

parentPort!.on('message', async ({ id, texts, query }: EmbedRequest) => {
  if (query !== undefined) {
    // A query's candidates, scored word by word: bounded texts (MAX_SIM_CHARS), a few ms at most.
    const scores = (maxSim ??= new MaxSim(embedder)).scores(query, texts);
    const reply: EmbedReply = { id, vectors: scores, known: new Uint8Array(0) };
    return parentPort!.postMessage(reply, [scores.buffer]);
  }
  const dims = embedder.dims;
  // One buffer per batch, handed over without a copy; `known` marks texts with a known word.
  const vectors = new Float32Array(texts.length * dims);
  const known = new Uint8Array(texts.length);
  let turn = performance.now();
  for (let i = 0; i < texts.length; i++) {
    // A piece at a time, with a turn of the event loop now and then: a query posted meanwhile is
    // answered in between (answers carry their id, so they may overtake a batch).
    const pieces = embedder.embedInPieces(texts[i]!);
    let step = pieces.next();
    while (!step.done) {
      if (performance.now() - turn > TURN_MS) {
        await new Promise((ok) => setImmediate(ok));
        turn = performance.now();
      }
      step = pieces.next();
    }
    const v = step.value;
    if (!v) continue;
    vectors.set(v, i * dims);
    known[i] = 1;
  }
  const reply: EmbedReply = { id, vectors, known };
  parentPort!.postMessage(reply, [vectors.buffer, known.buffer]);
});
