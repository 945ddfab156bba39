import type { ChalkInstance } from 'chalk';

/**
 * chalk with colour off, without loading chalk: every style (`c.bold`, `c.red.dim`, `c[name]`) is
 * the identity, joining its arguments with spaces as chalk does. Pipes, --json and NO_COLOR runs
 * (most scripted runs) skip chalk's import this way.
 */
export const plainChalk: ChalkInstance = (() => {
  const style = (...args: unknown[]) => args.join(' ');
  const proxy: unknown = new Proxy(style, {
    get: (_target, key) => (key === 'level' ? 0 : typeof key === 'symbol' ? undefined : proxy),
  });
  return proxy as ChalkInstance;
})();
