/** The scopes of SPEC §3, without zod, so the CLI's help can list them without loading zod. */
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
