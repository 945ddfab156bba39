import { z } from 'zod';

export const SCOPES = [
  'memory:read',
  'memory:write',
  'calendar:read',
  'calendar:write',
  'agent:plan',
  'agent:approve',
  'agent:execute',
  'tempo:read',
  'tempo:write',
  'export:read',
  'admin',
] as const;
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;
