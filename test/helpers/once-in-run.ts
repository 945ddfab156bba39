/**
 * True when `key` was already claimed in this vitest process. Global setups run once per project
 * (tier) that has files in the run, each through its own module loader, so module state is not
 * shared between them; the process's global object is.
 */
export function onceInThisRun(key: string): boolean {
  const mark = Symbol.for(key);
  const g = globalThis as Record<symbol, unknown>;
  if (g[mark]) return true;
  g[mark] = true;
  return false;
}
