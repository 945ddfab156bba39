/**
 * Values for the API fuzz test, generated from the JSON Schemas of /openapi.json with a seeded PRNG,
 * so a failing run can be replayed from its seed. `valid` values follow the schema as far as a
 * generator can (patterns are approximated by a pool of realistic strings); `hostile` ones break it
 * on purpose: wrong types, missing or extra fields, prototype keys, deep nesting, huge values.
 */

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Schema = Record<string, any>;

/** mulberry32: small, fast, and the same sequence on every platform for a seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Strings a person, an agent or an attacker would send. */
const STRINGS = [
  '',
  ' ',
  'a',
  'Deep work on the report',
  'gym',
  'task-1',
  '@morning',
  '@deep-work',
  '25m',
  '1h30m',
  'FREQ=DAILY;COUNT=3',
  'FREQ=WEEKLY;BYDAY=MO,TH',
  'FREQ=HOURLY;BYMINUTE=0,15,30,45',
  'FREQ=DAILY;BYMONTHDAY=-1,-2;COUNT=5',
  'FREQ=YEARLY;BYYEARDAY=1,-1;BYMONTHDAY=31',
  'FREQ=MONTHLY;BYSETPOS=-1;BYDAY=MO,TU,WE,TH,FR',
  'Europe/Paris',
  'America/New_York',
  'Not/AZone',
  '2026-11-24T09:00:00Z',
  '2026-11-24T09:00:00+05:30',
  '2026-02-30T09:00:00Z',
  '2026-11-24',
  '9999-12-31T23:59:59Z',
  '0000-01-01T00:00:00Z',
  'tomorrow at 9am for an hour',
  'owner@example.com',
  'not-an-email',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "'; DROP TABLE traces; --",
  '%00',
  '\u0000',
  '\ud800',
  'é🙂中文',
  'tr_0000000000000',
  'ev_0000000000000',
  'pl_0000000000000',
  'key_0000000000000',
  'usr_0000000000000',
  'summary',
  'full',
  'linked',
  'diff',
  'keyword',
  'semantic',
  'hybrid',
  'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:__proto__\r\nDTSTART:20261124T090000Z\r\nSUMMARY:x\r\nX-__proto__:y\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
];

const NUMBERS = [0, 1, -1, 2, 3, 5, 15, 60, 1440, 1e6, -1e9, 2 ** 31, 2 ** 53, 0.5, -0.0, 1e308];

/** Addresses for `url` fields that no test server can stand for: refused by validation or by the policy. */
const HOSTILE_URLS = [
  'file:///etc/passwd',
  'ftp://127.0.0.1/x.ics',
  'javascript:alert(1)',
  'http://user:secret@127.0.0.1:9/cal/',
  'webcal://127.0.0.1:9/feed.ics',
  'http://[::1]:9/feed.ics',
  'http://127.0.0.1:0/',
  'http://127.0.0.1:9/' + 'a'.repeat(3000),
  'not a url',
];

export class Gen {
  readonly rand: () => number;
  /** Ids and uids seen in successful responses: requests that name existing things reach deeper code. */
  readonly seen: string[] = [];

  /** `urls`: addresses of the test's own servers, used for `url` fields so sync requests reach the network code. */
  constructor(
    seed: number,
    private readonly components: Record<string, Schema>,
    private readonly urls: readonly string[] = [],
  ) {
    this.rand = prng(seed);
  }

  chance(p: number): boolean {
    return this.rand() < p;
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.rand() * (hi - lo + 1));
  }

  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rand() * xs.length)]!;
  }

  /** Remember ids from a response so later requests can name them. */
  learn(value: unknown, skip: ReadonlySet<string>): void {
    const walk = (v: unknown, depth: number) => {
      if (depth > 6 || this.seen.length > 500) return;
      if (typeof v === 'string') {
        if (/^(tr|ev|pl|ac|key|usr|cp)_[\w-]+$/.test(v) && !skip.has(v) && !this.seen.includes(v)) this.seen.push(v);
      } else if (Array.isArray(v)) v.slice(0, 20).forEach((x) => walk(x, depth + 1));
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v))
          if (k === 'uid' && typeof x === 'string' && !skip.has(x)) this.seen.includes(x) || this.seen.push(x);
          else walk(x, depth + 1);
    };
    walk(value, 0);
  }

  private resolve(s: Schema): Schema {
    let cur = s;
    for (let i = 0; i < 10 && cur?.$ref; i++) cur = this.components[String(cur.$ref).replace('#/components/schemas/', '')] ?? {};
    return cur ?? {};
  }

  /** A value that the schema accepts, as far as a generator can tell. */
  valid(schema: Schema, depth = 0): Json {
    const s = this.resolve(schema);
    if (depth > 6) return null;
    if ('const' in s) return s.const;
    if (s.enum) return this.pick(s.enum);
    const alts = s.anyOf ?? s.oneOf;
    if (alts) return this.valid(this.pick(alts), depth + 1);
    if (s.allOf) return Object.assign({}, ...s.allOf.map((x: Schema) => this.valid(x, depth + 1)));
    const type = Array.isArray(s.type) ? this.pick(s.type) : s.type;
    switch (type) {
      case 'object':
        return this.object(s, depth);
      case 'array': {
        const n = this.int(s.minItems ?? 0, Math.min(s.maxItems ?? 3, (s.minItems ?? 0) + 3));
        return Array.from({ length: n }, () => this.valid(s.items ?? {}, depth + 1));
      }
      case 'string':
        return this.string(s);
      case 'integer':
      case 'number':
        return this.number(s, type === 'integer');
      case 'boolean':
        return this.chance(0.5);
      case 'null':
        return null;
      default:
        return this.chance(0.5) ? this.pick(STRINGS) : this.pick(NUMBERS);
    }
  }

  private object(s: Schema, depth: number): Json {
    const out: Record<string, Json> = {};
    const required = new Set<string>(s.required ?? []);
    for (const [k, sub] of Object.entries<Schema>(s.properties ?? {})) {
      if (!required.has(k) && !this.chance(0.5)) continue;
      out[k] = k === 'url' && this.chance(0.8) ? this.url() : this.valid(sub, depth + 1);
    }
    if (s.additionalProperties && typeof s.additionalProperties === 'object' && this.chance(0.5))
      out[this.pick(['gym', 'meeting', '@morning', 'x'])] = this.valid(s.additionalProperties, depth + 1);
    return out;
  }

  private string(s: Schema): string {
    if (this.seen.length && this.chance(0.25)) return this.pick(this.seen);
    const now = Date.UTC(2026, 10, 24, 9) + this.int(-30, 60) * 86_400_000 + this.int(0, 23) * 3_600_000;
    if (s.format === 'date-time') return new Date(now).toISOString().replace('.000', '');
    if (s.format === 'date') return new Date(now).toISOString().slice(0, 10);
    if (s.format === 'email') return `${this.pick(['owner', 'bob', 'alice'])}${this.int(0, 9)}@example.com`;
    const v = this.pick(STRINGS);
    const min = s.minLength ?? 0;
    const max = s.maxLength ?? 10_000;
    return (v.length < min ? v.padEnd(min, 'x') : v).slice(0, max);
  }

  private number(s: Schema, integer: boolean): number {
    const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -5);
    const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : Math.max(lo + 100, 120));
    const n = this.chance(0.2) ? this.pick([lo, hi]) : lo + this.rand() * (hi - lo);
    return integer ? Math.round(n) : n;
  }

  /** An address for a `url` field: mostly the test's servers, sometimes one that must be refused. */
  url(): string {
    return this.urls.length && this.chance(0.7) ? this.pick(this.urls) : this.pick(HOSTILE_URLS);
  }

  /**
   * One JSON-RPC message for `/mcp`, or a batch of them: requests and notifications of the
   * protocol's methods with valid or hostile params (`tools` are the session's tools and input
   * schemas), unknown methods, and messages missing their envelope.
   */
  jsonRpc(tools: readonly { name: string; inputSchema: Schema }[], resources: readonly string[]): Json {
    if (this.chance(0.1)) return Array.from({ length: this.int(0, 6) }, () => this.rpcMessage(tools, resources));
    return this.rpcMessage(tools, resources);
  }

  private rpcMessage(tools: readonly { name: string; inputSchema: Schema }[], resources: readonly string[]): Json {
    const method = this.pick([
      'initialize',
      'notifications/initialized',
      'tools/list',
      'tools/call',
      'tools/call',
      'tools/call',
      'resources/list',
      'resources/read',
      'resources/subscribe',
      'prompts/list',
      'prompts/get',
      'completion/complete',
      'ping',
      'logging/setLevel',
      'notifications/cancelled',
      'sampling/createMessage',
      '__proto__',
      '',
    ]);
    let params: Json;
    if (method === 'tools/call') {
      const tool =
        tools.length && this.chance(0.85) ? this.pick(tools) : { name: this.pick(['approve_plan', '__proto__', '', 'x'.repeat(300)]), inputSchema: {} };
      params = { name: tool.name, arguments: this.chance(0.5) ? this.valid(tool.inputSchema) : this.hostile(tool.inputSchema) };
    } else if (method === 'resources/read' || method === 'resources/subscribe')
      params = {
        uri:
          this.chance(0.7) && resources.length
            ? this.pick(resources)
            : this.pick(['kairos://trace/__proto__', 'kairos://task/../context', 'file:///etc/passwd', '']),
      };
    else if (method === 'initialize')
      params = { protocolVersion: this.pick(['2025-06-18', '2025-03-26', '1999-01-01', '']), capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } };
    else if (method === 'prompts/get') params = { name: this.pick(['ground_full', 'catch_up', 'nope']), arguments: { task_id: this.pick(STRINGS) } };
    else if (method === 'completion/complete')
      params = { ref: { type: 'ref/prompt', name: 'ground_full' }, argument: { name: 'task_id', value: this.pick(STRINGS) } };
    else params = this.chance(0.5) ? {} : this.hostile({ type: 'object' });
    const msg: Record<string, Json> = { jsonrpc: '2.0', method, params };
    if (!method.startsWith('notifications/')) msg.id = this.chance(0.9) ? this.int(1, 1e6) : this.pick<Json>(['x', null, { a: 1 }, -1] as Json[]);
    if (this.chance(0.05)) delete msg.jsonrpc;
    return this.chance(0.05) ? this.hostile({ type: 'object' }) : msg;
  }

  /** A value the schema should refuse (or that probes a corner it may not think of). */
  hostile(schema: Schema): Json {
    const base = this.valid(schema);
    switch (this.int(0, 9)) {
      case 0:
        return this.pick([null, 42, 'text', true, [], [1, 'a']]);
      case 1: // a required field missing, or every field null
        if (base && typeof base === 'object' && !Array.isArray(base)) {
          const keys = Object.keys(base);
          if (keys.length) delete base[this.pick(keys)];
          else return Object.fromEntries(Object.keys(this.resolve(schema).properties ?? {}).map((k) => [k, null]));
        }
        return base;
      case 2: // prototype keys, as JSON.parse would make them: own properties named so
        return this.withKeys(base, ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']);
      case 3:
        return this.deep(this.int(50, 3000));
      case 4: // every string replaced by a huge one
        return this.mapStrings(base, () => 'x'.repeat(this.pick([300, 5000, 200_000])));
      case 5: // every number replaced by a boundary
        return this.mapNumbers(base, () => this.pick([-1, 0, 1e308, -1e308, 2 ** 53 + 1, 0.1]));
      case 6: // wrong type in one place
        return this.mapStrings(base, () => this.pick<Json>([1, null, {}, [], false] as Json[]));
      case 7:
        return this.withKeys(base, ['unknown_field', 'user_id', 'version', 'uid']);
      case 8: // big arrays
        return this.mapArrays(base, (a) => Array.from({ length: this.pick([0, 1001, 20_000]) }, () => a[0] ?? 'x'));
      default:
        return this.mapStrings(base, () => this.pick(STRINGS));
    }
  }

  private withKeys(v: Json, keys: string[]): Json {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const text = JSON.stringify(v).slice(0, -1);
    const extra = keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(this.pick<Json>([{ polluted: true }, 'x', 1, null] as Json[]))}`).join(',');
    return JSON.parse(`${text}${text.length > 1 ? ',' : ''}${extra}}`);
  }

  private deep(n: number): Json {
    let v: Json = 'bottom';
    for (let i = 0; i < n; i++) v = this.chance(0.5) ? [v] : { a: v };
    return v;
  }

  private mapStrings(v: Json, f: () => Json): Json {
    if (typeof v === 'string') return this.chance(0.6) ? f() : v;
    if (Array.isArray(v)) return v.map((x) => this.mapStrings(x, f));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.mapStrings(x, f)]));
    return v;
  }

  private mapNumbers(v: Json, f: () => number): Json {
    if (typeof v === 'number') return f();
    if (Array.isArray(v)) return v.map((x) => this.mapNumbers(x, f));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.mapNumbers(x, f)]));
    return v;
  }

  private mapArrays(v: Json, f: (a: Json[]) => Json[]): Json {
    if (Array.isArray(v)) return f(v);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.mapArrays(x, f)]));
    return v;
  }
}
