import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { settings } from '../../../../../src/cli/commands/config/settings.js';
import { ConfigFile } from '../../../../../src/config/config.js';

describe('kairos config settings', () => {
  it('covers every key of the config schema (a new key needs its binding in settings.ts)', () => {
    const leaves: string[] = [];
    const walk = (shape: Record<string, z.ZodType>, prefix: string) => {
      for (const [k, v] of Object.entries(shape)) {
        const inner = v instanceof z.ZodOptional ? (v.unwrap() as z.ZodType) : v;
        if (inner instanceof z.ZodObject) walk(inner.shape as Record<string, z.ZodType>, `${prefix}${k}.`);
        else leaves.push(prefix + k);
      }
    };
    walk(ConfigFile.shape as Record<string, z.ZodType>, '');
    expect(settings().map((s) => s.key)).toEqual(leaves);
  });
});
