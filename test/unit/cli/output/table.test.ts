import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { table, visibleWidth } from '../../../../src/cli/output/table.js';
import { forTerminal, markedChalk } from '../../../../src/cli/output/terminal-text.js';

// Colour as the IO's chalk makes it; stripped from what the terminal gets.
const dim = markedChalk(new Chalk({ level: 1 })).dim;
const strip = (s: string) => forTerminal(s).replace(/\x1b\[[0-9;]*m/g, '');

describe('table', () => {
  it('aligns coloured cells by what the terminal shows (colour codes take no room)', () => {
    const out = strip(
      table(
        ['', 'Mon', 'Tue'],
        [
          ['@deep-work', '09:00-12:00', dim('·')],
          ['@admin', dim('·'), '14:00-15:00'],
        ],
      ),
    );
    const lines = out.split('\n');
    const col = lines[0]!.indexOf('Tue');
    expect(lines[1]!.indexOf('·')).toBe(col);
    expect(lines[2]!.indexOf('14:00')).toBe(col);
  });

  it('fits a width: the widest column is cut with … so no row wraps; columns stay aligned', () => {
    const scopes = 'memory:read,memory:write,calendar:read,calendar:write,agent:plan,agent:approve,tempo:read,tempo:write,keys:admin';
    const out = table(
      ['ID', 'NAME', 'SCOPES', 'STATE'],
      [
        ['key_01abcdefgh', 'owner', scopes, 'active'],
        ['key_01zzzzzzzz', 'feed', 'calendar:feed', 'revoked'],
      ],
      80,
    );
    const lines = out.split('\n');
    for (const l of lines) expect(visibleWidth(l)).toBeLessThanOrEqual(80);
    expect(lines[1]).toMatch(/… {2}active$/);
    const state = lines[0]!.indexOf('STATE');
    expect(lines[1]!.indexOf('active')).toBe(state);
    expect(lines[2]!.indexOf('revoked')).toBe(state);
    // Without a width nothing is cut.
    expect(table(['ID', 'SCOPES'], [['k', scopes]])).toContain(scopes);
  });

  it('measures a cell as the terminal shows it: a control character in data takes one column', () => {
    const out = table(
      ['A', 'B'],
      [
        ['\x1b[2Jx', 'y'],
        ['abcdef', 'z'],
      ],
    );
    const lines = out.split('\n');
    expect(lines[1]).toBe('␛[2Jx   y');
    expect(lines[2]!.indexOf('z')).toBe(lines[1]!.indexOf('y'));
  });
});
