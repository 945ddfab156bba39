import { homePaths, resolveHome } from '../../../config/paths.js';
import type { CliDeps, RunInput } from '../../command-runtime.js';
import { effectiveConfig, readRaw, settings, sourceOf, validate } from './settings.js';

/** `kairos config list`: every setting, its value in effect and where that value comes from. */
export async function run(_input: RunInput, deps: CliDeps): Promise<void> {
  const path = homePaths(resolveHome(deps.env)).config;
  const raw = await readRaw(path);
  const config = effectiveConfig(validate(raw, path), deps.env);
  const rows = settings().map((s) => ({ key: s.key, value: s.effective(config) ?? null, source: sourceOf(s, raw, deps.env), takes: s.takes }));
  deps.io.data({ path, settings: rows }, () =>
    [
      deps.io.table(
        ['KEY', 'VALUE', 'SOURCE'],
        rows.map((r) => [r.key, r.value ?? (deps.io.plain ? '' : '-'), r.source]),
      ),
    ].join('\n'),
  );
  deps.io.hint(`file: ${path} · change one with: kairos config set <key> <value>`);
}
