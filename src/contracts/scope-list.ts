/** The scopes of SPEC §3, without zod, so the CLI's help can list them without loading zod. */
export const SCOPES = [
  'memory:read',
  'memory:write',
  'calendar:read',
  'calendar:write',
  /** Reads only `GET /calendar/feed.ics` (the key `kairos cal subscribe-url` mints for calendar apps). */
  'calendar:feed',
  'agent:plan',
  'agent:approve',
  'agent:execute',
  'tempo:read',
  'tempo:write',
  'export:read',
  'profile:read',
  'profile:write',
  'admin',
] as const;
