import { z } from 'zod';
import { runningDaemon } from '../../../client/daemon-process.js';
import { homePaths, resolveHome } from '../../../config/paths.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';
import { getPath, parseValue, readRaw, type Setting, setPath, setting, settings, validate, writeRaw } from './settings.js';

/**
 * `kairos config set <key> <value>` and `kairos config unset <key>`: change config.json, checked by
 * the daemon's own schema before anything is written (a refused value leaves the file as it was).
 * The daemon reads the file when it starts, so a running one is named with the command that applies it.
 */
export async function run({ args }: RunInput, deps: CliDeps): Promise<void> {
  const home = resolveHome(deps.env);
  const path = homePaths(home).config;
  const before = await readRaw(path);
  const key = args[0]!;
  if (args.length < 2) {
    // unset also removes what is not a setting (a typo the schema refuses), so a bad file can be fixed from here.
    const known = settings().some((x) => x.key === key);
    return change(known ? setting(key) : { key, takes: '', example: '', effective: () => undefined, schema: z.unknown() }, undefined, before, home, deps);
  }
  const s = setting(key);
  await change(s, parseValue(s, args[1]!), before, home, deps);
}

async function change(s: Setting, value: unknown, before: Record<string, unknown>, home: string, deps: CliDeps): Promise<void> {
  const path = homePaths(home).config;
  if (value === undefined && getPath(before, s.key) === undefined) {
    if (!settings().some((x) => x.key === s.key)) setting(s.key);
  }
  const after = setPath(before, s.key, value);
  validate(after, path, s.key);
  const was = getPath(before, s.key);
  if (JSON.stringify(was) !== JSON.stringify(value)) await writeRaw(path, after);
  deps.io.data({ path, key: s.key, value: value ?? null, previous: was ?? null }, () =>
    value === undefined ? `Removed ${s.key} from ${path} (the default applies)` : `Set ${s.key} = ${JSON.stringify(value)} in ${path}`,
  );
  if (s.env && deps.env[s.env]) deps.io.note(`kairos: ${s.env}=${deps.env[s.env]} in this environment overrides ${s.key}.`);
  const daemon = await runningDaemon(home, deps.env);
  if (daemon) deps.io.note(`kairos: the daemon (pid ${daemon.pid}) read config.json when it started: restart it to apply this (kairos daemon restart).`);
}
