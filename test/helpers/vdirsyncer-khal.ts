import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** Debian's Python programs; a pyenv `python3` on PATH must not stand in for the system one. */
const env = { ...process.env, PYENV_VERSION: 'system', TZ: 'UTC', LC_ALL: 'C.UTF-8' };

/** Whether the Debian packages `vdirsyncer` and `khal` are installed. */
export const HAS_KHAL_VDIRSYNCER = ['vdirsyncer', 'khal'].every((p) => spawnSync(p, ['--version'], { stdio: 'ignore', env }).status === 0);

/**
 * What a third party reads of a CalDAV collection: vdirsyncer copies it to a local folder, khal
 * lists its occurrences from `from` for `days` days, each as `YYYY-MM-DDTHH:MM title` (UTC), sorted.
 */
export async function occurrencesByKhal(o: { url: string; user: string; password: string; from: string; days: number }): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'kairos-khal-'));
  try {
    mkdirSync(join(dir, 'local'));
    const vconf = join(dir, 'vdirsyncer.conf');
    writeFileSync(
      vconf,
      [
        '[general]',
        `status_path = "${join(dir, 'status')}/"`,
        '[pair cal]',
        'a = "remote"',
        'b = "local"',
        'collections = null',
        'conflict_resolution = "a wins"',
        '[storage remote]',
        'type = "caldav"',
        `url = "${o.url}"`,
        `username = "${o.user}"`,
        `password = "${o.password}"`,
        '[storage local]',
        'type = "filesystem"',
        `path = "${join(dir, 'local')}/"`,
        'fileext = ".ics"',
        '',
      ].join('\n'),
    );
    await run('vdirsyncer', ['-c', vconf, 'discover', 'cal'], { env });
    await run('vdirsyncer', ['-c', vconf, 'sync'], { env });
    return await khalList(dir, o.from, o.days);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** khal's configuration over the folder `dir`/local (times in UTC). */
function khalConf(dir: string): string {
  const kconf = join(dir, 'khal.conf');
  writeFileSync(
    kconf,
    [
      '[calendars]',
      '[[work]]',
      `path = ${join(dir, 'local')}`,
      'type = calendar',
      '[locale]',
      'timeformat = %H:%M',
      'dateformat = %Y-%m-%d',
      'longdateformat = %Y-%m-%d',
      'datetimeformat = %Y-%m-%dT%H:%M',
      'longdatetimeformat = %Y-%m-%dT%H:%M',
      'local_timezone = UTC',
      'default_timezone = UTC',
      '[sqlite]',
      `path = ${join(dir, 'khal.db')}`,
      '',
    ].join('\n'),
  );
  return kconf;
}

/** khal's listing of the calendar in `dir`/local, one `YYYY-MM-DDTHH:MM title` (UTC) a line, sorted. */
async function khalList(dir: string, from: string, days: number): Promise<string[]> {
  const { stdout } = await run('khal', ['-c', khalConf(dir), 'list', '--format', '{start} {title}', '--day-format', '', from, `${days}d`], { env });
  return stdout
    .split('\n')
    .filter((l) => l.trim())
    .sort();
}

/** What khal reads of a calendar file: `khal import` of it, then its occurrences as occurrencesByKhal lists them. */
export async function occurrencesOfFileByKhal(ics: string, from: string, days: number): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'kairos-khal-'));
  try {
    mkdirSync(join(dir, 'local'));
    const file = join(dir, 'calendar.ics');
    writeFileSync(file, ics);
    await run('khal', ['-c', khalConf(dir), 'import', '--batch', '-a', 'work', file], { env });
    return await khalList(dir, from, days);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
