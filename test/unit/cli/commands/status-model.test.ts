import { describe, expect, it } from 'vitest';
import { formatBytes, formatModel } from '../../../../src/cli/commands/status/status.js';

// `kairos status`'s model line: a start that only loads files said "preparing loading".
describe('the model line of kairos status', () => {
  it('says loading while the model loads its files', () => {
    expect(formatModel({ state: 'preparing', step: 'loading', progress: null })).toBe('loading (semantic search is partial until it ends)');
    expect(formatModel({ state: 'preparing', step: null, progress: null })).toBe('loading (semantic search is partial until it ends)');
  });

  it('names what is being made, and how far', () => {
    expect(formatModel({ state: 'preparing', step: 'word vectors', progress: 0.42 })).toBe(
      'preparing word vectors 42% (semantic search is partial until it ends)',
    );
  });

  it('says ready, or why the model is unavailable', () => {
    expect(formatModel({ state: 'ready', step: null, progress: null })).toBe('ready');
    expect(formatModel({ state: 'unavailable', step: null, progress: null, detail: 'no disk' })).toBe('unavailable: no disk (keyword search only)');
  });
});

describe('the store size in `kairos status`', () => {
  it('is said in the unit that keeps it short', () => {
    expect(formatBytes(0)).toBe('0.0 KiB');
    expect(formatBytes(831_898)).toBe('812.4 KiB');
    expect(formatBytes(137_573_171)).toBe('131.2 MiB');
    // A home of a million traces, which read "1212763.8 KiB".
    expect(formatBytes(1_241_870_155)).toBe('1.2 GiB');
  });
});
