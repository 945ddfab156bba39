import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { openingNote, openingProgress } from '../../../src/client/opening-progress.js';
import { OPENING_EVERY_MS } from '../../../src/config/daemon-state.js';
import { logOpenProgress } from '../../../src/daemon/open-progress.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function logFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kairos-opening-'));
  dirs.push(dir);
  return join(dir, 'daemon.log');
}

describe('a daemon opening a large store, as a waiting command sees it', () => {
  it('reads the daemon’s own progress lines, and only fresh ones', async () => {
    const log = logFile();
    const logger = pino({ base: { pid: 1 }, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ dest: log, sync: true }));
    const progress = logOpenProgress(logger);
    // The first line is due only after OPENING_EVERY_MS: a small home's open logs nothing.
    progress(10 * 2 ** 20, 100 * 2 ** 20);
    expect(await openingProgress(log)).toBeUndefined();
    const later = Date.now() + OPENING_EVERY_MS + 1;
    const realNow = Date.now;
    Date.now = () => later;
    try {
      progress(40 * 2 ** 20, 100 * 2 ** 20);
    } finally {
      Date.now = realNow;
    }
    const p = await openingProgress(log);
    expect(p).toEqual({ read_mb: 40, total_mb: 100 });
    expect(openingNote(p!)).toBe('kairos: the daemon is opening a large home (40 of 100 MB read); waiting for it');
    // Other lines after it do not hide it; a torn last line neither.
    appendFileSync(log, '{"level":30,"msg":"something else"}\n{"level":30,"ms');
    expect(await openingProgress(log)).toEqual({ read_mb: 40, total_mb: 100 });
    // A line of long ago means the daemon is not opening any more (it died, or it listens).
    expect(await openingProgress(log, Date.now() + 60_000)).toBeUndefined();
  });

  it('is nothing for a missing log, or one without such lines', async () => {
    const log = logFile();
    expect(await openingProgress(log)).toBeUndefined();
    writeFileSync(log, 'kairos listening on http://127.0.0.1:1\n{"msg":"opening the store"}\n');
    expect(await openingProgress(log)).toBeUndefined();
  });
});
