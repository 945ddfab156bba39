/**
 * Vitest global setup: prepare the built-in embedding model once, before any test file runs.
 * On a fresh machine its conversion takes a few minutes (search.md); every daemon the tests start
 * then loads it at once, so no test sees the keyword-only fallback of a first start by accident.
 */
export default async function prepareModel(): Promise<void> {
  const { BuiltinModel, defaultCacheDirs } = await import('../../dist/domain/search/builtin-model.js');
  const started = Date.now();
  const model = new BuiltinModel({ cacheDirs: defaultCacheDirs() });
  await model.complete;
  if (model.error ?? model.encoderError) throw new Error(`the built-in embedding model could not be prepared: ${model.error ?? model.encoderError}`);
  const ms = Date.now() - started;
  if (ms > 1000) process.stdout.write(`prepared the built-in embedding model in ${(ms / 1000).toFixed(0)} s (first run on this machine)\n`);
}
