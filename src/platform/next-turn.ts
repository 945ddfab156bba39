/**
 * Resolves in a later turn of the event loop, after the I/O that is waiting (setImmediate): work
 * that runs on the loop awaits it between slices so that no turn holds the loop over 100 ms (docs/architecture.md, "Runtime rules").
 */
export const nextTurn = (): Promise<void> => new Promise((ok) => setImmediate(ok));
