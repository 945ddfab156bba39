import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { forTerminal, markedChalk, visible } from '../../../../src/cli/output/terminal-text.js';

const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

describe('visible', () => {
  it('shows each control character as one visible character', () => {
    expect(visible('a\x1b]0;t\x07b\x08c\x7fd\u009be\u202ef')).toBe('a␛]0;t␇b␈c␡d\ufffde\ufffdf');
    expect([...visible('\x1b\x9b\u202e')]).toHaveLength(3);
  });

  it('keeps tab and line feed, and a CR only before a line feed', () => {
    expect(visible('a\tb\nc\r\nd\re')).toBe('a\tb\nc\r\nd␍e');
  });

  it('leaves text without control characters alone', () => {
    const s = 'Zürich 会議 🎉 “quoted” — fine';
    expect(visible(s)).toBe(s);
  });
});

describe('markedChalk and forTerminal', () => {
  const c = markedChalk(new Chalk({ level: 1 }));

  it("keeps the CLI's own colours, nested ones too", () => {
    expect(forTerminal(c.red(`a ${c.bold('b')} c`))).toBe(new Chalk({ level: 1 }).red(`a ${new Chalk({ level: 1 }).bold('b')} c`));
    expect(forTerminal(c.green.dim('x'))).toBe('\x1b[32m\x1b[2mx\x1b[22m\x1b[39m');
  });

  it('carries no ESC before forTerminal: a styled text is inert until it is written', () => {
    expect(c.red('x')).not.toMatch(RAW);
  });

  it('shows an escape sequence in the data it styles, and in data beside it', () => {
    const out = forTerminal(`${c.bold('\x1b[2Jtitle')} \x1b]0;x\x07`);
    expect(out).toBe('\x1b[1m␛[2Jtitle\x1b[22m ␛]0;x␇');
  });

  it('without colour, forTerminal alone shows everything', () => {
    expect(forTerminal('\x1b[31mred')).toBe('␛[31mred');
  });
});
