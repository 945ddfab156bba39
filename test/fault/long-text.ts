/** Long traces per push: 10 of 95,000 characters stay just under the 1 MiB body limit. */
export const LONG_PER_PUSH = 10;

const filler = 'meeting budget project garden kitchen travel flight hotel invoice customer design review quarterly board'.split(' ');

/** The text of long trace `i`: 95,000 characters of everyday words, none of them medical. */
export function longText(i: number): string {
  let t = `long note ${i}:`;
  for (let w = i; t.length < 95_000; w++) t += ` ${filler[w % filler.length]}`;
  return t.slice(0, 95_000);
}
