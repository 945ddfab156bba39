import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { userCacheDir } from './paths.js';

const configInvalid = (message: string) => new AppError(422, 'config_invalid', message);

/** `config.json`: every key optional; environment variables override it (see docs/config.md). */
export const ConfigFile = z
  .object({
    port: z.number().int().min(0).max(65535).optional(),
    host: z.string().min(1).optional(),
    rate_limit: z.number().int().min(0).optional().describe('requests per minute per (key, IP); 0 = off'),
    cache_ttl_minutes: z.number().min(15).max(30).optional(),
    planner: z
      .object({
        provider: z.enum(['default', 'openai']).optional(),
        base_url: z.string().url().optional(),
        model: z.string().optional(),
        timeout_ms: z.number().int().positive().optional(),
      })
      .optional(),
    embeddings: z.object({ base_url: z.string().url().optional(), model: z.string().optional() }).optional(),
    snapshot: z
      .object({
        every_ops: z.number().int().positive().optional(),
        every_ms: z.number().int().positive().optional(),
        backups: z.number().int().min(1).max(20).optional(),
      })
      .optional(),
    sync: z
      .object({
        check_seconds: z
          .number()
          .int()
          .min(1)
          .max(3600)
          .optional()
          .describe('how often the daemon looks for subscriptions and accounts that are due (default 60)'),
        caldav_every_minutes: z.number().int().min(1).max(1440).optional().describe('CalDAV sync interval (default 15)'),
        max_subscriptions: z.number().int().min(0).max(10_000).optional().describe('subscriptions one user may have (default 50)'),
        max_accounts: z.number().int().min(0).max(1000).optional().describe('CalDAV accounts one user may have (default 20)'),
      })
      .strict()
      .optional(),
    outbound: z
      .object({
        allow_hosts: z
          .array(z.string().min(1).max(253))
          .max(100)
          .optional()
          .describe(
            'hosts, addresses or CIDR ranges kairos may fetch from although they are loopback, private or link-local (e.g. a CalDAV server on the LAN)',
          ),
        max_mib: z.number().int().min(1).max(1024).optional().describe('largest answer accepted from a feed, CalDAV or OAuth server, in MiB (default 10)'),
        timeout_seconds: z.number().int().min(1).max(600).optional().describe('deadline of one outbound request, body included (default 30)'),
      })
      .strict()
      .optional(),
  })
  .strict();
export type ConfigFile = z.infer<typeof ConfigFile>;

export interface Config {
  port: number;
  host: string;
  rateLimit: number;
  cacheTtlMs: number;
  debug: boolean;
  planner: { provider: 'default' | 'openai'; baseUrl?: string; model?: string; apiKey?: string; timeoutMs: number };
  embeddings: { baseUrl?: string; model?: string; apiKey?: string };
  snapshot: { everyOps: number; everyMs: number; backups: number };
  /**
   * The built-in embedding model's files: `dir` (KAIROS_MODEL_DIR) replaces the shipped files and
   * the cache; `cacheDir` is the per-user cache (XDG_CACHE_HOME) where missing files are made.
   */
  model: { dir?: string; cacheDir: string };
  /** Calendar sync: how often due subscriptions and accounts are looked for, the CalDAV interval, and the per-user caps. */
  sync: { checkMs: number; caldavEveryMs: number; maxSubscriptions: number; maxAccounts: number };
  /**
   * Requests to other servers (feeds, CalDAV, OAuth): the hosts the address policy lets through
   * (config.json's list, then KAIROS_OUTBOUND_ALLOW's comma list), the body cap and the deadline.
   */
  outbound: { allowHosts: string[]; maxBytes: number; timeoutMs: number };
}

export const DEFAULT_PORT = 7340;
export const DEFAULT_HOST = '127.0.0.1';

/**
 * config.json as a plain object ({} when absent); a file that is not a JSON object is refused,
 * naming it (the daemon's start and `kairos config` read it the same way).
 */
export async function readConfigObject(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw e;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw configInvalid(`${path} is not valid JSON: fix or remove it, then try again.`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw configInvalid(`${path} does not hold a JSON object: fix or remove it.`);
  return raw as Record<string, unknown>;
}

export async function readConfigFile(path: string): Promise<ConfigFile> {
  const raw = await readConfigObject(path);
  const parsed = ConfigFile.safeParse(raw);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw configInvalid(`${path} is invalid: ${why}`);
  }
  return parsed.data;
}

function envInt(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw configInvalid(`${name} must be a non-negative integer, not "${v}".`);
  return n;
}

/** Merge file settings, environment and command-line flags (flags win, then env, then file). */
export function resolveConfig(file: ConfigFile, env: NodeJS.ProcessEnv, flags: { port?: number; host?: string } = {}): Config {
  return {
    port: flags.port ?? envInt(env, 'KAIROS_PORT') ?? file.port ?? DEFAULT_PORT,
    host: flags.host ?? env.KAIROS_HOST ?? file.host ?? DEFAULT_HOST,
    rateLimit: envInt(env, 'KAIROS_RATE_LIMIT') ?? file.rate_limit ?? 100,
    cacheTtlMs: (file.cache_ttl_minutes ?? 15) * 60_000,
    debug: env.DEBUG === 'true' || env.DEBUG === '1',
    planner: {
      provider: file.planner?.provider ?? (env.KAIROS_LLM_BASE_URL ? 'openai' : 'default'),
      baseUrl: env.KAIROS_LLM_BASE_URL ?? file.planner?.base_url,
      model: env.KAIROS_LLM_MODEL ?? file.planner?.model,
      apiKey: env.KAIROS_LLM_API_KEY,
      timeoutMs: file.planner?.timeout_ms ?? 20_000,
    },
    embeddings: {
      baseUrl: env.KAIROS_EMBEDDINGS_BASE_URL ?? file.embeddings?.base_url,
      model: env.KAIROS_EMBEDDINGS_MODEL ?? file.embeddings?.model,
      apiKey: env.KAIROS_EMBEDDINGS_API_KEY,
    },
    snapshot: {
      everyOps: file.snapshot?.every_ops ?? 2000,
      everyMs: file.snapshot?.every_ms ?? 30_000,
      backups: file.snapshot?.backups ?? 3,
    },
    model: { dir: env.KAIROS_MODEL_DIR?.trim() || undefined, cacheDir: userCacheDir(env) },
    sync: {
      checkMs: (file.sync?.check_seconds ?? 60) * 1000,
      caldavEveryMs: (file.sync?.caldav_every_minutes ?? 15) * 60_000,
      maxSubscriptions: file.sync?.max_subscriptions ?? 50,
      maxAccounts: file.sync?.max_accounts ?? 20,
    },
    outbound: {
      allowHosts: [...(file.outbound?.allow_hosts ?? []), ...(env.KAIROS_OUTBOUND_ALLOW ?? '').split(',')].map((h) => h.trim()).filter(Boolean),
      maxBytes: (file.outbound?.max_mib ?? 10) * 1024 * 1024,
      timeoutMs: (file.outbound?.timeout_seconds ?? 30) * 1000,
    },
  };
}
