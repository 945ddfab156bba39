/**
 * Child-process entry: `node build-word-vectors-main.js <embeddings.json> <source> <out.bin>`.
 * The conversion briefly needs ~0.5 GB; doing it in its own process keeps the daemon small.
 */
import { readFileSync } from 'node:fs';
import { FILE_MODE } from '../../config/paths.js';
import { dieWithParent } from '../../platform/child-lifeline.js';
import { writeFileDurable } from '../../platform/durable-write.js';
import { buildWordVectors } from '../vectors/build-word-vectors.js';
import { encodeWordVectors } from '../vectors/word-vectors-file.js';

dieWithParent();
const [input, source, out] = process.argv.slice(2);
if (!input || !source || !out) {
  process.stderr.write('usage: build-word-vectors-main <embeddings.json> <source> <out.bin>\n');
  process.exit(2);
}
// Atomic and durable: a reader sees no file or the whole file, even with several converters
// racing, and a power loss never leaves a half-written model behind a complete name.
await writeFileDurable(out, encodeWordVectors(buildWordVectors(readFileSync(input), source)), { mode: FILE_MODE });
