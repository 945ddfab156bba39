import { onceInThisRun } from './once-in-run.js';

/**
 * Vitest global setup: load the built-in embedding model once, before any test file runs, and
 * fail clearly when it is not usable. Its files ship in models/ (nothing is converted); without
 * them (KAIROS_MODEL_DIR set, say) they are made here once, in minutes, and every daemon the tests
 * start then loads them at once, so no test sees the keyword-only fallback of a first start by
 * accident. Each tier that spawns daemons calls this; the first call in a run does the work.
 */
export default async function prepareModel(): Promise<void> {
  if (onceInThisRun('kairos.prepare-model')) return;
  const { BuiltinModel, modelLocations } = await import('../../dist/search/models/builtin-model.js');
  const { resolveConfig } = await import('../../dist/config/config.js');
  const started = Date.now();
  const model = new BuiltinModel(modelLocations(resolveConfig({}, process.env).model));
  await model.complete;
  if (model.error ?? model.encoderError) throw new Error(`the built-in embedding model could not be prepared: ${model.error ?? model.encoderError}`);
  const ms = Date.now() - started;
  if (ms > 1000) process.stdout.write(`prepared the built-in embedding model in ${(ms / 1000).toFixed(0)} s (its files were missing)\n`);
}
