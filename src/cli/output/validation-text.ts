import type { AppError, ErrorDetail } from '../../errors.js';

/** The flag that fills a query field, for the commands that take one (cal list --from → start). */
const FLAGS: Record<string, string[]> = {
  start: ['--from'],
  end: ['--to'],
  start_time: ['--since', '--from'],
  end_time: ['--until', '--to'],
  task_id: ['--task'],
  max_token_count: ['--max-tokens'],
  tag: ['--tag'],
  limit: ['--limit', '-n'],
  cursor: ['--cursor'],
  type: ['--type'],
};

/** An example of a good value, by field. */
const EXAMPLES: Record<string, (flag?: string) => string> = {
  start: (f) => (f ? `${f} 2031-02-01 or ${f} monday` : '"2031-02-01"'),
  end: (f) => (f ? `${f} 2031-03-01 or ${f} "next monday"` : '"2031-03-01"'),
  start_time: (f) => (f ? `${f} 2031-02-01T00:00:00Z` : '"2031-02-01T00:00:00Z"'),
  end_time: (f) => (f ? `${f} 2031-03-01T00:00:00Z` : '"2031-03-01T00:00:00Z"'),
  timestamp: () => '"timestamp": "2031-02-03T07:30:00+01:00"',
  task_id: (f) => (f ? `${f} marathon` : '"task_id": "marathon"'),
  content: () => '"content": "Easy 10 km run"',
  type: (f) => (f ? `${f} observation` : '"type": "observation"'),
  importance: () => '"importance": 3',
};

/** zod's wording as a phrase about the field: "expected string, received number" → "must be text, not a number". */
function phrase(message: string): string {
  const m = message.replace(/^Invalid input: /, '');
  let x: RegExpExecArray | null;
  if (/received undefined/.test(m)) return 'is missing';
  if ((x = /expected (\w+), received (\w+)/.exec(m))) return `must be ${kind(x[1]!)}, not ${article(x[2]!)}`;
  if ((x = /Too big: expected \w+ to (?:be|have) <=?(\d+)/.exec(m))) return `must be at most ${x[1]}`;
  if ((x = /Too small: expected \w+ to (?:be|have) >=?(\d+)/.exec(m))) return `must be at least ${x[1]}`;
  if (/^Invalid (ISO )?(datetime|date)/i.test(m) || m === 'Invalid input') return 'is not a date or time it can read';
  if ((x = /Invalid option: expected one of (.+)$/.exec(m))) return `must be one of ${x[1]!.replace(/"/g, '').replace(/\|/g, ', ')}`;
  return m.charAt(0).toLowerCase() + m.slice(1);
}
const kind = (t: string) => ({ string: 'text', number: 'a number', boolean: 'true or false', array: 'a list', object: 'an object' })[t] ?? t;
const article = (t: string) => ({ number: 'a number', string: 'text', boolean: 'true or false', array: 'a list', object: 'an object', null: 'null' })[t] ?? t;

/** The value the person gave a flag on this command line. */
function flagValue(argv: string[], flag: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === flag) return argv[i + 1];
    if (argv[i]!.startsWith(`${flag}=`)) return argv[i]!.slice(flag.length + 1);
  }
  return undefined;
}

function sentence(detail: ErrorDetail, where: 'query' | 'body', argv: string[]): string {
  let d = detail;
  const parts = d.path.split('.');
  const field = parts.at(-1)!;
  const example = EXAMPLES[field];
  // A message that already names its field ("max_token_count applies to …") says it once.
  if (d.message.startsWith(`${field} `)) d = { ...d, message: d.message.slice(field.length + 1) };
  if (where === 'query') {
    const flag = (FLAGS[field] ?? []).find((f) => flagValue(argv, f) !== undefined);
    if (flag) {
      const v = flagValue(argv, flag);
      return `${flag}: "${v}" ${phrase(d.message)}${example ? ` (e.g. ${example(flag)})` : ''}.`;
    }
  }
  // traces.0.task_id → "trace 1: task_id …": items are counted from 1, as a person counts lines.
  const item = parts.length >= 3 && /^\d+$/.test(parts[1]!) ? `${parts[0]!.replace(/s$/, '')} ${Number(parts[1]) + 1}: ` : '';
  const name = item ? parts.slice(2).join('.') : d.path;
  return `${item}${name} ${phrase(d.message)}${example ? ` (e.g. ${example()})` : ''}.`;
}

/**
 * The daemon's raw validation answer (`Invalid query: start: Invalid input`, `Invalid body:
 * traces.0.task_id: …`) as sentences that name the flag or field, with an example; undefined for
 * any other error. Only the CLI's rendering: the API's envelope is unchanged (and --json prints it).
 */
export function validationSentences(err: AppError, argv: string[]): string[] | undefined {
  const m = /^Invalid (query|body): /.exec(err.message);
  if (!m || !err.details?.length) return undefined;
  return err.details.map((d) => sentence(d, m[1] as 'query' | 'body', argv));
}
