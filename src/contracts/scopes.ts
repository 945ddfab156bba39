import { z } from 'zod';

import { SCOPES } from './scope-list.js';

export { SCOPES };
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;
