/**
 * Worker-thread main of a large .ics import (started by import-reader.ts, never imported): reads
 * and checks the file off the event loop and posts the result back in slices, so that the main
 * thread also takes it in small turns (a structured clone is decoded in one go on arrival).
 * A fresh worker per file: whatever a hostile file does to this thread's objects dies with it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { prepareImport } from './import-check.js';
import type { ReaderInput, ReaderMessage } from './import-reader.js';

const { defaultTz, sliceItems } = workerData as ReaderInput;
const port = parentPort!;
const post = (m: ReaderMessage) => port.postMessage(m);

port.once('message', (parts: ArrayBuffer[]) => {
  const text = Buffer.concat(parts.map((p) => Buffer.from(p))).toString('utf8');
  const out = prepareImport(text, defaultTz);
  for (let i = 0; i < out.checked.length; i += sliceItems) post({ kind: 'checked', items: out.checked.slice(i, i + sliceItems) });
  for (let i = 0; i < out.errors.length; i += sliceItems) post({ kind: 'errors', items: out.errors.slice(i, i + sliceItems) });
  for (let i = 0; i < out.warnings.length; i += sliceItems) post({ kind: 'warnings', items: out.warnings.slice(i, i + sliceItems) });
  post({ kind: 'done', skipped: out.skipped });
});
