import { usage } from '../command-runtime.js';

/** `--set key=value` pairs into an object; a value that parses as JSON is taken as JSON. */
export function parseSetPairs(pairs: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of pairs) {
    const i = p.indexOf('=');
    if (i <= 0) throw usage(`--set wants key=value, not "${p}".`);
    const raw = p.slice(i + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      /* a plain string */
    }
    out[p.slice(0, i)] = value;
  }
  return out;
}
