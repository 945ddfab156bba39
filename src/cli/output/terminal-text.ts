import type { ChalkInstance } from 'chalk';

/**
 * Text from outside (event titles, servers' error texts, trace content, anything in the daemon's
 * answers) is obeyed by a terminal when it carries control characters: ESC, CSI and OSC start
 * sequences that retitle the window, clear the screen, recolour or hide what follows; BEL rings;
 * BS and a lone CR move back over text already printed; bidi overrides show text in another order
 * than it is stored. Each of those code points becomes one visible character of the same width (a
 * control picture, or U+FFFD), so the widths of tables and grids stay right.
 *
 * The CLI's own colours are escape sequences too. The IO's chalk writes them with a mark known
 * only to this process instead of ESC (`markedChalk`); `forTerminal` makes everything else visible
 * and only then turns marks back into ESC, so data cannot forge a colour: it never sees the mark.
 */

const ESC = '\x1b';

// Tab and line feed shape the CLI's own output; a CR just before a line feed moves nothing.
const CONTROL = /\r(?!\n)|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

function picture(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x20) return String.fromCodePoint(0x2400 + cp);
  if (cp === 0x7f) return '\u2421';
  return '\ufffd';
}

/** `text` with every control character but tab and line feed shown as a visible character. */
export function visible(text: string): string {
  return text.replace(CONTROL, picture);
}

// Six private-use characters drawn at start: about 2^75 possibilities, never printed as they are.
const MARK = String.fromCodePoint(...Array.from(crypto.getRandomValues(new Uint16Array(6)), (n) => 0xe000 + (n % 0x1900)));

/** The CLI's own colour codes as they travel inside its text before `forTerminal`. */
export const STYLE_CODE = new RegExp(`${MARK}\\[[0-9;]*m`, 'g');

/** Human output as the terminal gets it: outside text made visible, the CLI's own colours kept. */
export function forTerminal(text: string): string {
  return visible(text).replaceAll(MARK, ESC);
}

/**
 * A chalk whose styles mark their codes (see above). What it styles is made visible first, so an
 * escape sequence in data is shown, never passed on as one of ours.
 */
export function markedChalk(chalk: ChalkInstance): ChalkInstance {
  // A stand-in target: chalk's own styles are fixed properties, which a proxy may not change.
  type Style = (...args: unknown[]) => unknown;
  const wrap = (real: Style, owner?: object): unknown =>
    new Proxy(() => {}, {
      apply: (_stand, _self, args: unknown[]) => {
        const out = Reflect.apply(
          real,
          owner,
          args.map((a) => visible(String(a)).replaceAll(MARK, ESC)),
        );
        return typeof out === 'function' ? wrap(out as Style) : String(out).replaceAll(ESC, MARK);
      },
      get: (_stand, key) => {
        const value = Reflect.get(real, key);
        return typeof value === 'function' ? wrap(value as Style, real) : value;
      },
    });
  return wrap(chalk as unknown as Style) as ChalkInstance;
}
