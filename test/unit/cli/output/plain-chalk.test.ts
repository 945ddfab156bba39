import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { plainChalk } from '../../../../src/cli/output/plain-chalk.js';

describe('plainChalk', () => {
  it('styles as chalk does with colour off, without loading chalk', () => {
    const off = new Chalk({ level: 0 });
    for (const [name, f] of [
      ['bold', (c: typeof off) => c.bold('a')],
      ['chained', (c: typeof off) => c.red.dim.underline('b')],
      ['by name', (c: typeof off) => (c.cyan as typeof off)('c')],
      ['several arguments', (c: typeof off) => c.green('x', 2, 'y')],
    ] as const)
      expect(f(plainChalk), name).toBe(f(off));
  });
});
