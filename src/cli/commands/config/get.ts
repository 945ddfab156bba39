import { homePaths, resolveHome } from '../../../config/paths.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';
import { effectiveConfig, readRaw, setting, sourceOf, validate } from './settings.js';

/** `kairos config get <key>`: the value in effect (nothing printed when it has none), its source with --json. */
export async function run({ args }: RunInput, deps: CliDeps): Promise<void> {
  const s = setting(args[0]!);
  const path = homePaths(resolveHome(deps.env)).config;
  const raw = await readRaw(path);
  const value = s.effective(effectiveConfig(validate(raw, path), deps.env));
  const source = sourceOf(s, raw, deps.env);
  deps.io.data({ key: s.key, value: value ?? null, source }, () => (value === undefined ? '' : String(value)));
  if (source !== 'config.json') deps.io.hint(`(${source === 'default' ? 'the default' : `from ${source}`})`);
}
