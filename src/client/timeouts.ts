import type { EndpointName } from '../contracts/endpoints.js';
import { AppError } from '../errors.js';

/** How long a request may go without a byte from the daemon before the CLI gives up. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** The same for the endpoints below, whose work may rightly take minutes. */
export const LONG_TIMEOUT_MS = 300_000;

/**
 * Endpoints that wait on something slower than the daemon itself: an LLM (each call up to the
 * planner's own timeout, and a plan may make several), a remote calendar server, or a whole
 * calendar or export of the store.
 */
const LONG: ReadonlySet<EndpointName> = new Set<EndpointName>([
  'POST /agent/plan',
  'POST /chat/plan-preview',
  'POST /chat/respond',
  'POST /calendar/import',
  'POST /calendar/sync/run',
  'POST /calendar/sync/accounts',
  'POST /calendar/subscriptions',
  'POST /calendar/subscriptions/{id}/refresh',
  'GET /context/export',
  'GET /calendar/export.ics',
]);

/**
 * The timeout of one call: `configured` (from KAIROS_TIMEOUT_MS) applies to every endpoint as
 * it is; unset, ordinary endpoints get 30 s and the long ones 5 min. 0 means no timeout.
 */
export function timeoutFor(name: EndpointName, configured: number | undefined): number {
  if (configured !== undefined) return configured;
  return LONG.has(name) ? LONG_TIMEOUT_MS : DEFAULT_TIMEOUT_MS;
}

/** `KAIROS_TIMEOUT_MS` as a number of milliseconds (undefined when unset); anything else is a usage error. */
export function timeoutFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.KAIROS_TIMEOUT_MS?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,10}$/.test(raw)) throw new AppError(422, 'usage', `KAIROS_TIMEOUT_MS must be a whole number of milliseconds (0 waits for ever), not "${raw}".`);
  return Number(raw);
}
