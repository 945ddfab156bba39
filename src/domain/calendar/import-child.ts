/**
 * Child-process main of a large .ics import (forked by import-reader.ts, never imported): reads
 * and checks the file off the daemon's event loop and sends the result back in slices, one at a
 * time: the next only once the daemon asks for it (`'more'`), after it took the previous one in a
 * turn of its own. Sent all at once, the slices queued up while the daemon was busy and were
 * decoded in one turn (a 10 MiB file: ~47,000 events, 200–300 ms held).
 * A fresh process per file: whatever a hostile file does to this process's objects dies with it.
 */
import { parseIcs } from '../../ical/import.js';
import { dieWithParent } from '../../platform/child-lifeline.js';
import { prepareImport } from './import-check.js';
import type { ReaderMessage, ReaderRequest } from './import-reader.js';

dieWithParent({ serve: true });
const parts: Buffer[] = [];
let messages: ReaderMessage[] | undefined;
let next = 0;

const send = () => {
  const m = messages?.[next++];
  if (m) process.send!(m);
};

process.on('message', (req: ReaderRequest) => {
  if (req.kind === 'part') parts.push(Buffer.from(req.bytes));
  else if (req.kind === 'more') send();
  else {
    const text = Buffer.concat(parts).toString('utf8');
    parts.length = 0;
    const out = prepareImport(text, req.defaultTz, parseIcs);
    const n = req.sliceItems;
    messages = [];
    for (let i = 0; i < out.checked.length; i += n) messages.push({ kind: 'checked', items: out.checked.slice(i, i + n) });
    for (let i = 0; i < out.errors.length; i += n) messages.push({ kind: 'errors', items: out.errors.slice(i, i + n) });
    for (let i = 0; i < out.warnings.length; i += n) messages.push({ kind: 'warnings', items: out.warnings.slice(i, i + n) });
    messages.push({ kind: 'done', skipped: out.skipped });
    send();
  }
});
