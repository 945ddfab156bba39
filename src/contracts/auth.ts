import { z } from 'zod';
import { IsoDateTime } from './common.js';
import { Scope } from './scopes.js';

export const CreateKeyRequest = z
  .object({
    name: z.string().min(1).max(100),
    agent_id: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[\w.:@-]+$/, 'letters, digits and . _ : @ -')
      .optional(),
    scopes: z.array(Scope).min(1),
    ttl_seconds: z
      .number()
      .int()
      .positive()
      .max(10 * 365 * 24 * 3600)
      .optional(),
    user_id: z.string().optional().describe('admin only: mint a key for another user'),
  })
  .strict();

export const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    user_id: z.string(),
    agent_id: z.string().nullable(),
    scopes: z.array(Scope),
    prefix: z.string().describe('first characters of the secret, to recognise it'),
    created_at: IsoDateTime,
    expires_at: IsoDateTime.nullable(),
    revoked_at: IsoDateTime.nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKey>;

export const CreatedKey = z
  .object({
    id: z.string(),
    key: z.string().describe('the secret; shown only now'),
    name: z.string(),
    user_id: z.string(),
    agent_id: z.string().nullable(),
    scopes: z.array(Scope),
    expires_at: IsoDateTime.nullable(),
  })
  .meta({ id: 'CreatedKey' });

export const KeyList = z.object({ keys: z.array(ApiKey) });

/** Who a credential is: what an MCP server or a script checks before offering what it may do. */
export const WhoAmI = z
  .object({
    user_id: z.string(),
    via: z.enum(['key', 'token']),
    key_id: z.string().nullable(),
    agent_id: z.string().nullable().describe("the key's agent, or the X-Agent-ID sent"),
    scopes: z.array(Scope),
    timezone: z.string().describe("the user's IANA time zone (what dates without a zone are read in)"),
  })
  .meta({ id: 'WhoAmI' });
export const KeyIdParams = z.object({ id: z.string() });
export const RevokedKey = z.object({ revoked: z.string(), revoked_at: IsoDateTime });

export const LoginRequest = z.object({ email: z.string().email(), password: z.string().min(1) }).strict();
export const LoginResponse = z.object({
  token: z.string(),
  token_type: z.literal('Bearer'),
  expires_at: IsoDateTime,
  user_id: z.string(),
});
