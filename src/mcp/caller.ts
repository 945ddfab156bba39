import type { z } from 'zod';
import type { WhoAmI } from '../contracts/auth.js';

/** The credential an MCP session acts with (`GET /auth/whoami`): its user, agent, scopes and zone. */
export type Caller = z.infer<typeof WhoAmI>;
