/**
 * Worker-thread main of a large .ics import (started by import-reader.ts, never imported): reads
 * and checks the file off the event loop and posts the result back in slices, one at a time: the
 * next only once the main thread asks for it (`'more'`), after it took the previous one in a turn
 * of its own. Posted all at once, the slices queued up while the main thread was busy and Node
 * decoded every queued message in one turn (a 10 MiB file: ~47,000 events, 200–300 ms held).
 * A fresh worker per file: whatever a hostile file does to this thread's objects dies with it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { prepareImport } from './import-check.js';
import type { ReaderInput, ReaderMessage } from './import-reader.js';

const { defaultTz, sliceItems } = workerData as ReaderInput;
const port = parentPort!;

port.once('message', (parts: ArrayBuffer[]) => {
  const text = Buffer.concat(parts.map((p) => Buffer.from(p))).toString('utf8');
  const out = prepareImport(text, defaultTz);
  const messages: ReaderMessage[] = [];
  for (let i = 0; i < out.checked.length; i += sliceItems) messages.push({ kind: 'checked', items: out.checked.slice(i, i + sliceItems) });
  for (let i = 0; i < out.errors.length; i += sliceItems) messages.push({ kind: 'errors', items: out.errors.slice(i, i + sliceItems) });
  for (let i = 0; i < out.warnings.length; i += sliceItems) messages.push({ kind: 'warnings', items: out.warnings.slice(i, i + sliceItems) });
  messages.push({ kind: 'done', skipped: out.skipped });
  let next = 0;
  const send = () => {
    const m = messages[next++];
    if (m) port.postMessage(m);
    if (next >= messages.length) port.off('message', send);
  };
  port.on('message', send);
  send();
});
