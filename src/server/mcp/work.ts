/**
 * The JSON-RPC methods that do work the rate limit counts: each calls the API on the caller's
 * behalf (a tool, a resource, a rendered prompt, a completion from memory). Everything else in a
 * session (initialize, notifications, listings, ping, subscriptions) only manages the session.
 */
const WORK = new Set(['tools/call', 'resources/read', 'prompts/get', 'completion/complete']);

/** How many units of work a POSTed body asks for: one per request of a counted method, batches included. */
export function workIn(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  let n = 0;
  for (const m of messages) if (m !== null && typeof m === 'object' && WORK.has((m as { method?: unknown }).method as string)) n++;
  return n;
}
