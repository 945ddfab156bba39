import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: the bench's generator is plain JavaScript (a realistic mix of events).
import { makeIcs } from '../../../../bench/calendar.mjs';
import { prepareImport } from '../../../../src/domain/calendar/import-check.js';
import { ImportReader } from '../../../../src/domain/calendar/import-reader.js';
import { AppError } from '../../../../src/errors.js';
import { parseIcs } from '../../../../src/ical/import.js';

/**
 * The reader of .ics imports (issue 14): large files are read in a child process, bounded in time
 * and heap, and whatever ends the child is a clear error, never a crash. The child is the
 * compiled one (tests run src/, a child process needs JavaScript): `npm run build` first.
 */
const CHILD = new URL('../../../../dist/domain/calendar/import-child.js', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'kairos-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const refusal = async (p: Promise<unknown>): Promise<AppError> => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
};

describe('ImportReader', () => {
  it('reads a large file in its child process exactly as the same checks read it in place', async () => {
    const ics = makeIcs(400);
    const reader = new ImportReader({ inlineMaxChars: 1000, childUrl: CHILD });
    const viaChild = await reader.read(ics, 'Europe/Berlin');
    expect(viaChild.checked).toHaveLength(400);
    expect(viaChild).toEqual(prepareImport(ics, 'Europe/Berlin', parseIcs));
  }, 60_000);

  it('hands over any text whole: characters outside the BMP across the parts it is sent in', async () => {
    // An emoji (a surrogate pair) at every offset around the 512 Ki-character parts.
    const pad = 'X'.repeat(512 * 1024 - 200);
    const title = `${'😀'.repeat(300)} end`;
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//t//EN',
      'BEGIN:VEVENT',
      'UID:emoji',
      'DTSTAMP:20310101T000000Z',
      'DTSTART:20310201T100000Z',
      'DURATION:PT1H',
      `X-PAD:${pad}`,
      `SUMMARY:${title}`,
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const shifted = ics.replace(`X-PAD:`, `X-PAD:${'y'.repeat(51)}`);
    for (const text of [ics, shifted]) {
      const r = await new ImportReader({ inlineMaxChars: 1000, childUrl: CHILD }).read(text, 'UTC');
      expect(r.checked[0]?.core.title).toBe(title);
    }
  }, 60_000);

  it('reads a small file in place, without a child', async () => {
    const reader = new ImportReader({ childUrl: new URL('file:///nonexistent/child.js') });
    expect((await reader.read(makeIcs(5), 'UTC')).checked).toHaveLength(5);
  });

  it('stops a child that runs past its time: 422 naming import_parse_ms', async () => {
    const reader = new ImportReader({ inlineMaxChars: 1000, timeoutMs: 50, childUrl: CHILD });
    const e = await refusal(reader.read(makeIcs(5000), 'UTC'));
    expect(e.status).toBe(422);
    expect(e.details?.[0]).toMatchObject({ limit: 'import_parse_ms' });
    expect(e.message).toMatch(/import_parse_ms/);
  }, 60_000);

  it('stops a child that outgrows its heap: 422 naming import_parse_memory_mb', async () => {
    const reader = new ImportReader({ inlineMaxChars: 1000, memoryMb: 16, childUrl: CHILD });
    const e = await refusal(reader.read(makeIcs(20_000), 'UTC'));
    expect(e.status).toBe(422);
    expect(e.details?.[0]).toMatchObject({ limit: 'import_parse_memory_mb' });
  }, 120_000);

  it('a child that throws or exits early is a 500 import_failed, and the next import still works', async () => {
    const throwing = join(dir, 'throws.mjs');
    writeFileSync(throwing, "throw new Error('boom');\n");
    const exiting = join(dir, 'exits.mjs');
    writeFileSync(exiting, 'process.exit(3);\n');
    for (const file of [throwing, exiting]) {
      const e = await refusal(new ImportReader({ inlineMaxChars: 1000, childUrl: pathToFileURL(file) }).read(makeIcs(100), 'UTC'));
      expect(e.status).toBe(500);
      expect(e.code).toBe('import_failed');
      expect(e.expose).toBe(true);
    }
    const reader = new ImportReader({ inlineMaxChars: 1000, maxChildren: 1, childUrl: CHILD });
    const [a, b] = await Promise.all([reader.read(makeIcs(100), 'UTC'), reader.read(makeIcs(50), 'UTC')]);
    expect([a.checked.length, b.checked.length]).toEqual([100, 50]);
  }, 60_000);

  it.skipIf(!existsSync('/proc/self/environ'))(
    'its child ends with the daemon, even a SIGKILLed one',
    async () => {
      // The child is found by a mark in its environment (it inherits its parent's). It leaves when
      // its channel closes (platform/child-lifeline.ts); a parse under way (one synchronous call)
      // finishes first. Failed with a child that kept a timer and no lifeline.
      const mark = `KAIROS_READER_MARK=${process.pid}-${Date.now()}`;
      const marked = () =>
        readdirSync('/proc')
          .filter((p) => /^\d+$/.test(p))
          .filter((p) => {
            try {
              return readFileSync(`/proc/${p}/environ`, 'latin1').split('\0').includes(mark);
            } catch {
              return false;
            }
          });
      const until = async (ok: () => boolean, ms: number) => {
        for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (ok()) return true;
        return ok();
      };
      const script = join(dir, 'daemon.mjs');
      const reader = new URL('../../../../dist/domain/calendar/import-reader.js', import.meta.url).href;
      const bench = new URL('../../../../bench/calendar.mjs', import.meta.url).href;
      writeFileSync(
        script,
        `import { ImportReader } from ${JSON.stringify(reader)};
import { makeIcs } from ${JSON.stringify(bench)};
new ImportReader({ inlineMaxChars: 1000 }).read(makeIcs(40000), 'UTC').catch(() => {});
setTimeout(() => {}, 120000);
`,
      );
      const [name, value] = mark.split('=') as [string, string];
      const parent = spawn(process.execPath, [script], { env: { ...process.env, [name]: value }, stdio: 'ignore' });
      try {
        expect(await until(() => marked().some((p) => Number(p) !== parent.pid), 30_000)).toBe(true);
        parent.kill('SIGKILL');
        expect(await until(() => marked().length === 0, 15_000)).toBe(true);
      } finally {
        parent.kill('SIGKILL');
      }
    },
    60_000,
  );
});
