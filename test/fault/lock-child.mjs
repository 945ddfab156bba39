// One contender of the lock race (test/fault/lock-race.test.ts), alive for every round. On
// "try <lock> <home>" it tries the daemon lock once and says "won" or "lost <why>"; on "release"
// it lets go of a lock it won and says "released".
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const { acquireLock, DaemonRunningError } = await import(pathToFileURL(process.argv[2]).href);
let release;
process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  const [verb, lockPath, home] = line.split(' ');
  if (verb === 'try') {
    try {
      release = await acquireLock(lockPath, home);
      process.stdout.write('won\n');
    } catch (e) {
      process.stdout.write(`lost ${e instanceof DaemonRunningError ? 'running' : String(e.message)}\n`);
    }
  } else if (verb === 'release') {
    await release?.();
    release = undefined;
    process.stdout.write('released\n');
  }
}
