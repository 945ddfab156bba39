/**
 * Child-process entry: `node build-word-vectors-main.js <embeddings.json> <source> <out.bin>`.
 * The conversion briefly needs ~0.5 GB; doing it in its own process keeps the daemon small.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dieWithParent } from '../../platform/child-lifeline.js';
import { buildWordVectors } from '../vectors/build-word-vectors.js';
import { encodeWordVectors } from '../vectors/word-vectors-file.js';

dieWithParent();
const [input, source, out] = process.argv.slice(2);
if (!input || !source || !out) {
  process.stderr.write('usage: build-word-vectors-main <embeddings.json> <source> <out.bin>\n');
  process.exit(2);
}
const tmp = `${out}.${process.pid}.tmp`;
writeFileSync(tmp, encodeWordVectors(buildWordVectors(readFileSync(input), source)));
// Atomic: a reader sees no file or the whole file, even with several converters racing.
renameSync(tmp, out);
