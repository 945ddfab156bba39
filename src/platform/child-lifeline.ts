/**
 * For the children of the daemon (the search model's converters, the reader of a large import): exit when the parent goes away. The parent spawns
 * them with an IPC channel; the channel closes when the parent exits or is killed (even with
 * SIGKILL), and minutes of CPU for nobody would follow. Without a channel (run by hand) nothing
 * changes.
 *
 * "Spawned with a channel" is read from `process.send`, not `process.channel`: Node sets
 * `process.channel` to null once the channel has closed, and an ES module's imports load
 * asynchronously, so a parent killed in the child's first moments (the daemon's lazy model start
 * spawns the converter just after listening; a test may SIGKILL it then) closed the channel before
 * this ran — and the child would take itself for one run by hand and work on for nobody.
 * `process.send` stays a function after the disconnect and is undefined without a channel.
 */
export function dieWithParent(opts: { serve?: boolean } = {}): void {
  if (typeof process.send !== 'function') return;
  if (!process.connected) process.exit(1);
  process.on('disconnect', () => process.exit(1));
  // The channel alone must not keep a converter alive once its work is done; a child that
  // `serve`s works on its parent's messages, so the channel is what keeps it alive.
  if (!opts.serve) process.channel?.unref();
}

/** Tell the parent how far the work is (0..1), when it listens. */
export function reportProgress(fraction: number): void {
  if (process.connected) process.send?.({ progress: fraction });
}
