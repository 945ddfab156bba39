import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { ImportReader } from '../../src/domain/calendar/import-reader.js';
import { newId } from '../../src/domain/ids.js';
import { startApp, type TestApp } from '../helpers/in-process.js';
import { HAS_SHARED, itShared, SHARED } from '../helpers/shared.js';
import {
  asOccurrences,
  compareOccurrences,
  corpusFiles,
  corpusOf,
  type Difference,
  describeDifference,
  type Expected,
  expectedFor,
  type ListedItem,
  same,
} from './ics-oracle.js';

/**
 * Conformance of the importer against an independent oracle (issue 18): every calendar file of
 * three other projects' test corpora (../shared/fixtures/ics/external), imported by a fresh user
 * in the oracle's time zone, must list exactly the occurrences python-recurring-ical-events
 * computes over the file's window (UID, start in UTC, minutes, all-day, title); exported and
 * re-imported into a fresh home, it must list them again. A file that differs fails unless
 * ics-known-differences.json says, from the RFC, why kairos is right and the oracle is not.
 *
 * In-process (two apps, one per home, one user per file each): a daemon per file would spend
 * more time starting than comparing.
 */
const ROOT = join(SHARED, 'fixtures/ics/external');
const FILES = HAS_SHARED ? corpusFiles(ROOT) : [];
const KNOWN: Record<string, string> = JSON.parse(readFileSync(join(import.meta.dirname, 'ics-known-differences.json'), 'utf8'));
/** The compiled import child (tests run src/; a child process needs JavaScript, built by globalSetup). */
const CHILD = new URL('../../dist/domain/calendar/import-child.js', import.meta.url);

/** Every export of the run, validated together at the end (one python start, not 240). */
const exportsDir = HAS_SHARED ? mkdtempSync(join(tmpdir(), 'kairos-ics-conformance-')) : '';

type Verdict = 'match' | 'known' | 'differs' | 'round trip differs';
const results = new Map<string, { verdict: Verdict; compared: number; errors: number }>();

const DAY = 86_400_000;
let first: TestApp;
let second: TestApp;

beforeAll(async () => {
  if (!HAS_SHARED) return;
  [first, second] = await Promise.all([startApp(), startApp()]);
  // Large files go to the worker thread as in the daemon; its default URL points beside src/.
  for (const app of [first, second]) Object.assign(app.services.calendar, { reader: new ImportReader({ childUrl: CHILD }) });
}, 60_000);

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  if (exportsDir) rmSync(exportsDir, { recursive: true, force: true });
  if (results.size) printTable();
});

/** A user of its own in `app`'s store (no password: the owner key acts for it with X-User-ID). */
async function freshUser(app: TestApp, timezone: string): Promise<Record<string, string>> {
  const now = new Date().toISOString();
  const user_id = newId('usr');
  await app.store.transact((tx) =>
    tx.put('users', {
      user_id,
      email: null,
      display_name: 'conformance',
      timezone,
      preferences: {},
      password_hash: null,
      is_owner: false,
      created_at: now,
      updated_at: now,
    }),
  );
  return { 'x-user-id': user_id };
}

async function importInto(app: TestApp, as: Record<string, string>, text: string) {
  const r = await app.api('POST', '/calendar/import', { raw: text, headers: { 'content-type': 'text/calendar', ...as } });
  expect(r.status, r.text).toBe(200);
  return r.json as { imported: number; errors: { message: string }[]; warnings: { message: string }[] };
}

/** The occurrences starting in the window, listed a year at a time (a listing spans at most 366 days). */
async function listed(app: TestApp, as: Record<string, string>, exp: Expected): Promise<ListedItem[]> {
  const out: ListedItem[] = [];
  const end = Date.parse(exp.window[1]);
  for (let from = Date.parse(exp.window[0]); from < end; from += 365 * DAY) {
    const to = Math.min(end, from + 365 * DAY);
    const q = new URLSearchParams({ start: new Date(from).toISOString(), end: new Date(to).toISOString() });
    const r = await app.api('GET', `/calendar/events?${q}`, { headers: as });
    expect(r.status, r.text).toBe(200);
    // An occurrence reaching into the next part is listed there too: each part keeps those starting in it.
    out.push(...(r.json.events as ListedItem[]).filter((i) => Date.parse(i.scheduled_for) >= from && Date.parse(i.scheduled_for) < to));
  }
  return out;
}

for (const file of FILES) {
  itShared(`${file} lists the oracle's occurrences, before and after a round trip`, async () => {
    const exp = expectedFor(ROOT, file);
    const text = readFileSync(join(ROOT, file), 'utf8');
    const want = exp.occurrences.filter((o) => !exp.unreadable.includes(o.uid));

    const a = await freshUser(first, exp.user_tz);
    const report = await importInto(first, a, text);
    const once = compareOccurrences(want, asOccurrences(await listed(first, a, exp), exp));

    const exported = await first.api('GET', '/calendar/export.ics', { headers: a });
    expect(exported.status, exported.text).toBe(200);
    writeFileSync(join(exportsDir, `${file.replace(/[^A-Za-z0-9_.-]/g, '_')}`), exported.text);
    const b = await freshUser(second, exp.user_tz);
    await importInto(second, b, exported.text);
    const twice = compareOccurrences(want, asOccurrences(await listed(second, b, exp), exp));

    const verdict: Verdict = !same(once) ? 'differs' : !same(twice) ? 'round trip differs' : 'match';
    const known = KNOWN[file];
    results.set(file, { verdict: verdict !== 'match' && known ? 'known' : verdict, compared: want.length, errors: report.errors.length });
    if (known) {
      expect(verdict, `${file} is listed in ics-known-differences.json but now matches the oracle: remove it from the list`).not.toBe('match');
      return;
    }
    const show = (label: string, d: Difference) => `${label}\n${describeDifference(d)}`;
    expect(same(once), show(`${file}: the import lists other occurrences than the oracle`, once)).toBe(true);
    expect(same(twice), show(`${file}: after export and re-import, other occurrences than the oracle`, twice)).toBe(true);
  });
}

itShared("every export of the corpus passes ics-validate (RFC 5545 syntax, kairos' own output)", () => {
  let out = '';
  try {
    out = execFileSync(join(SHARED, 'tools/ics-validate'), ['-q', ...FILES.map((f) => join(exportsDir, f.replace(/[^A-Za-z0-9_.-]/g, '_')))], {
      encoding: 'utf8',
      env: { ...process.env, PYENV_VERSION: 'system' },
    });
  } catch (e) {
    const err = e as { status?: number; stdout?: string; stderr?: string };
    throw new Error(`ics-validate failed (exit ${err.status}):\n${err.stdout}${err.stderr}`);
  }
  expect(out).toMatch(new RegExp(`${FILES.length} passed, 0 failed`));
});

/** Per corpus: files, matching, known differences, differing; then the closing figure. */
function printTable(): void {
  const verdicts: Verdict[] = ['match', 'known', 'differs', 'round trip differs'];
  const rows = new Map<string, Record<Verdict, number>>();
  for (const [file, r] of results) {
    const row = rows.get(corpusOf(file)) ?? { match: 0, known: 0, differs: 0, 'round trip differs': 0 };
    row[r.verdict]++;
    rows.set(corpusOf(file), row);
  }
  const total = { match: 0, known: 0, differs: 0, 'round trip differs': 0 } as Record<Verdict, number>;
  const lines = [`${'corpus'.padEnd(12)}${'files'.padStart(7)}${verdicts.map((v) => v.padStart(20)).join('')}`];
  for (const [corpus, row] of [...rows].sort()) {
    const n = verdicts.reduce((s, v) => s + row[v], 0);
    for (const v of verdicts) total[v] += row[v];
    lines.push(`${corpus.padEnd(12)}${String(n).padStart(7)}${verdicts.map((v) => String(row[v]).padStart(20)).join('')}`);
  }
  const n = results.size;
  lines.push(`${'all'.padEnd(12)}${String(n).padStart(7)}${verdicts.map((v) => String(total[v]).padStart(20)).join('')}`);
  const differing = [...results].filter(([, r]) => r.verdict === 'differs' || r.verdict === 'round trip differs').map(([f]) => f);
  if (differing.length) lines.push('', 'differing:', ...differing.map((f) => `  ${f}`));
  lines.push(
    '',
    `iCalendar conformance: ${total.match} of ${n} files list the oracle's occurrences before and after a round trip; ${total.known} known differences (ics-known-differences.json); ${differing.length} differ.`,
  );
  process.stdout.write(`\n${lines.join('\n')}\n`);
}
