// The writer of test/fault/crash-mid-snapshot.test.ts: opens the store of argv[3] (module argv[2]:
// dist/store/store.js), with a snapshot due after every write, and writes traces one at a time
// and in concurrent pairs, printing "ack <uid> <content>" once each is acknowledged, until killed.
import { pathToFileURL } from 'node:url';

const { Store } = await import(pathToFileURL(process.argv[2]).href);
const { homePaths } = await import(pathToFileURL(process.argv[2].replace(/store[/\\]store\.js$/, 'config/paths.js')).href);
const round = process.argv[4];
const store = await Store.open(homePaths(process.argv[3]), { snapshotEveryOps: 1, snapshotJournalFraction: 0, snapshotEveryMs: 10 });
process.stdout.write('ready\n');
let n = 0;
const write = async () => {
  const uid = `k${round}-${n++}`;
  const content = `round ${round} write ${n}`;
  await store.transact((tx) => tx.put('traces', { uid, user_id: 'u', task_id: 'crash', content }));
  process.stdout.write(`ack ${uid} ${content}\n`);
};
for (;;) {
  await write();
  await Promise.all([write(), write()]);
}
