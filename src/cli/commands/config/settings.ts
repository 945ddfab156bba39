import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { type Config, ConfigFile, readConfigObject, resolveConfig } from '../../../config/config.js';
import { DIR_MODE, FILE_MODE } from '../../../config/paths.js';
import { AppError } from '../../../errors.js';
import { writeFileDurable } from '../../../platform/durable-write.js';
import { usage } from '../../command-runtime.js';

/** One setting of config.json, by its dotted key (`planner.model`). */
export interface Setting {
  key: string;
  /** What it takes, in words ("an integer from 0 to 65535"), with an example value. */
  takes: string;
  example: string;
  /** The environment variable that overrides it, if any. */
  env?: string;
  /** Its value in effect (file, environment and defaults merged as the daemon merges them). */
  effective(c: Config): string | number | undefined;
  schema: z.ZodType;
}

/** What the daemon reads for each key, and the variable that overrides it (docs/config.md's list). */
const BINDINGS: Record<string, { env?: string; effective(c: Config): string | number | undefined; example: string }> = {
  port: { env: 'KAIROS_PORT', effective: (c) => c.port, example: '7340' },
  host: { env: 'KAIROS_HOST', effective: (c) => c.host, example: '127.0.0.1' },
  rate_limit: { env: 'KAIROS_RATE_LIMIT', effective: (c) => c.rateLimit, example: '100' },
  cache_ttl_minutes: { effective: (c) => c.cacheTtlMs / 60_000, example: '15' },
  'planner.provider': { effective: (c) => c.planner.provider, example: 'openai' },
  'planner.base_url': { env: 'KAIROS_LLM_BASE_URL', effective: (c) => c.planner.baseUrl, example: 'http://127.0.0.1:11434/v1' },
  'planner.model': { env: 'KAIROS_LLM_MODEL', effective: (c) => c.planner.model, example: 'llama3.1' },
  'planner.timeout_ms': { effective: (c) => c.planner.timeoutMs, example: '20000' },
  'embeddings.base_url': { env: 'KAIROS_EMBEDDINGS_BASE_URL', effective: (c) => c.embeddings.baseUrl, example: 'http://127.0.0.1:11434/v1' },
  'embeddings.model': { env: 'KAIROS_EMBEDDINGS_MODEL', effective: (c) => c.embeddings.model, example: 'nomic-embed-text' },
  'snapshot.every_ops': { effective: (c) => c.snapshot.everyOps, example: '2000' },
  'snapshot.every_ms': { effective: (c) => c.snapshot.everyMs, example: '30000' },
  'snapshot.backups': { effective: (c) => c.snapshot.backups, example: '3' },
  'sync.check_seconds': { effective: (c) => c.sync.checkMs / 1000, example: '60' },
  'sync.caldav_every_minutes': { effective: (c) => c.sync.caldavEveryMs / 60_000, example: '15' },
  'sync.max_subscriptions': { effective: (c) => c.sync.maxSubscriptions, example: '50' },
  'sync.max_accounts': { effective: (c) => c.sync.maxAccounts, example: '20' },
  'outbound.allow_hosts': { env: 'KAIROS_OUTBOUND_ALLOW', effective: (c) => c.outbound.allowHosts.join(',') || undefined, example: 'nas.local,192.168.1.10' },
  'outbound.max_mib': { effective: (c) => c.outbound.maxBytes / 1024 / 1024, example: '10' },
  'outbound.timeout_seconds': { effective: (c) => c.outbound.timeoutMs / 1000, example: '30' },
};

const unwrap = (s: z.ZodType): z.ZodType => (s instanceof z.ZodOptional || s instanceof z.ZodNullable ? unwrap(s.unwrap() as z.ZodType) : s);

function takes(s: z.ZodType): string {
  if (s instanceof z.ZodNumber) {
    const what = s.isInt ? 'an integer' : 'a number';
    // zod's int() bounds an integer by the safe range: that is no bound a person needs to read.
    const bound = (v: number | null) => (v !== null && Math.abs(v) < Number.MAX_SAFE_INTEGER ? v : undefined);
    const lo = bound(s.minValue);
    const hi = bound(s.maxValue);
    if (lo !== undefined && hi !== undefined) return `${what} from ${lo} to ${hi}`;
    if (lo !== undefined) return `${what} ≥ ${lo}`;
    return what;
  }
  if (s instanceof z.ZodEnum) return `one of ${(s.options as string[]).join(', ')}`;
  if (s instanceof z.ZodString) return s.format === 'url' ? 'a URL' : 'text';
  if (s instanceof z.ZodArray) return 'a comma-separated list';
  return 'a value';
}

/** Every key of config.json, read off its schema (src/config/config.ts), in the schema's order. */
export function settings(): Setting[] {
  const out: Setting[] = [];
  const walk = (shape: Record<string, z.ZodType>, prefix: string) => {
    for (const [name, field] of Object.entries(shape)) {
      const s = unwrap(field);
      const key = prefix + name;
      if (s instanceof z.ZodObject) walk(s.shape as Record<string, z.ZodType>, `${key}.`);
      else {
        const b = BINDINGS[key];
        if (!b) continue;
        out.push({ key, takes: takes(s), schema: s, ...b });
      }
    }
  };
  walk(ConfigFile.shape as Record<string, z.ZodType>, '');
  return out;
}

/** The setting named `key`, or a usage error listing the keys there are. */
export function setting(key: string): Setting {
  const all = settings();
  const s = all.find((x) => x.key === key);
  if (s) return s;
  const near = all.filter((x) => x.key.includes(key) || key.includes(x.key.split('.').pop()!)).map((x) => x.key);
  throw usage(`No setting "${key}"${near.length ? ` (did you mean ${near.join(' or ')}?)` : ''}. Settings: ${all.map((x) => x.key).join(', ')}.`);
}

const invalid = (message: string) => new AppError(422, 'config_invalid', message);

/** config.json as a plain object ({} when absent). */
export const readRaw = readConfigObject;

/**
 * The file validated by the daemon's own schema, each problem said of its key with what it takes.
 * `change` names the key being set: its problem is said without the file, which stays unchanged.
 */
export function validate(raw: Record<string, unknown>, path: string, change?: string): ConfigFile {
  const parsed = ConfigFile.safeParse(raw);
  if (parsed.success) return parsed.data;
  const why = parsed.error.issues.map((i) => {
    const key = i.path.join('.');
    const s = settings().find((x) => x.key === key);
    if (i.code === 'unrecognized_keys') return `${key ? `${key}: ` : ''}unknown setting(s) ${i.keys.join(', ')} (kairos config unset ${i.keys[0]})`;
    return s ? `${key} must be ${s.takes} (e.g. kairos config set ${key} ${s.example})` : `${key || '(root)'}: ${i.message}`;
  });
  const others = parsed.error.issues.some((i) => i.path.join('.') !== change);
  if (!others) throw invalid(`${why.join('; ')}; ${path} is unchanged.`);
  throw invalid(`${path}: ${why.join('; ')}. Fix it with kairos config set/unset, or edit the file.`);
}

/** The effective configuration, as the daemon would merge it now. */
export const effectiveConfig = (file: ConfigFile, env: NodeJS.ProcessEnv) => resolveConfig(file, env);

/** Where the value in effect comes from. */
export function sourceOf(s: Setting, raw: Record<string, unknown>, env: NodeJS.ProcessEnv): string {
  if (s.env && env[s.env] !== undefined && env[s.env] !== '') return `env ${s.env}`;
  return getPath(raw, s.key) !== undefined ? 'config.json' : 'default';
}

export function getPath(o: Record<string, unknown>, key: string): unknown {
  let cur: unknown = o;
  for (const part of key.split('.')) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[part] : undefined;
  return cur;
}

/** A copy of `o` with `key` set (or removed when `value` is undefined; an emptied section goes too). */
export function setPath(o: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(o);
  const parts = key.split('.');
  let cur = copy;
  for (const p of parts.slice(0, -1)) {
    if (!cur[p] || typeof cur[p] !== 'object') cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  const last = parts.at(-1)!;
  if (value === undefined) delete cur[last];
  else cur[last] = value;
  if (parts.length > 1 && value === undefined && !Object.keys(cur).length) delete copy[parts[0]!];
  return copy;
}

/** A value typed on the command line, as the key's type: "100" is a number for a number setting. */
export function parseValue(s: Setting, text: string): unknown {
  if (s.schema instanceof z.ZodNumber) {
    const n = Number(text.trim());
    if (text.trim() === '' || !Number.isFinite(n)) throw invalid(`${s.key} must be ${s.takes}, not "${text}" (e.g. kairos config set ${s.key} ${s.example}).`);
    return n;
  }
  if (s.schema instanceof z.ZodArray)
    return text
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  return text;
}

/** Write config.json whole, atomically and durably, private to the user. */
export async function writeRaw(path: string, raw: Record<string, unknown>): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: DIR_MODE });
  await writeFileDurable(path, `${JSON.stringify(raw, null, 2)}\n`, { mode: FILE_MODE });
}
