import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'vitest';

/**
 * `../shared` beside the repository: the real-world `.ics` corpus, the search corpus and the
 * iCalendar validator. CI checks it out there; a clone of the public repository does not have it.
 * Every test that reads it goes through this file, so a fresh clone skips exactly those tests and
 * says why, instead of failing on a missing file.
 */
export const SHARED = resolve(import.meta.dirname, '../../../shared');

export const HAS_SHARED = existsSync(SHARED);

/** Why the test was skipped, as it appears in the test's name (the one line a reader sees). */
export const SHARED_MISSING = `skipped: needs ${SHARED} (shared fixtures and tools, present in CI, not in a clone)`;

const name = (title: string) => (HAS_SHARED ? title : `${title} — ${SHARED_MISSING}`);

/** `describe` for tests that need ../shared: skipped, with the reason in its title, when it is absent. */
export function describeShared(title: string, fn: () => void): void {
  describe.skipIf(!HAS_SHARED)(name(title), fn);
}

/** `it` for a test that needs ../shared: skipped, with the reason in its title, when it is absent. */
export function itShared(title: string, fn: () => Promise<void> | void, timeout?: number): void {
  it.skipIf(!HAS_SHARED)(name(title), fn, timeout);
}
