import type { Commit } from '../../store/commit.js';
import type { CollectionName } from '../../store/schema.js';
import type { Store } from '../../store/store.js';
import type { Clock } from '../clock.js';

interface Entry {
  value: unknown;
  expiresAt: number;
}

/** Writes to these never change what an export shows. */
const IRRELEVANT = new Set<CollectionName>(['api_keys', 'checkpoints']);

/**
 * Export responses per (user, normalized parameters), for the configured lifetime. Any committed
 * write to a user's traces, events, plans, tempo profile or user record clears that user's
 * entries at once; a delete (whose owner the operation does not carry) clears every user's.
 */
export class ExportCache {
  private readonly users = new Map<string, Map<string, Entry>>();

  constructor(
    private readonly ttlMs: number,
    private readonly clock: Clock,
    private readonly maxPerUser = 64,
  ) {}

  get(userId: string, key: string): unknown {
    const m = this.users.get(userId);
    const e = m?.get(key);
    if (!e) return undefined;
    m!.delete(key);
    if (e.expiresAt <= this.clock.now().getTime()) return undefined;
    // Re-inserted so the map's order is least recently used first.
    m!.set(key, e);
    return e.value;
  }

  /** `until` (ms) shortens the lifetime, e.g. to when a cached trace expires. */
  set(userId: string, key: string, value: unknown, until?: number): void {
    let m = this.users.get(userId);
    if (!m) this.users.set(userId, (m = new Map()));
    m.delete(key);
    const expiresAt = Math.min(this.clock.now().getTime() + this.ttlMs, until ?? Infinity);
    m.set(key, { value, expiresAt });
    if (m.size > this.maxPerUser) m.delete(m.keys().next().value!);
  }

  clearUser(userId: string): void {
    this.users.delete(userId);
  }

  clearAll(): void {
    this.users.clear();
  }

  /** Invalidate from the store's commits; returns the unsubscribe function. */
  follow(store: Store): () => void {
    return store.commits((commit) => this.invalidate(commit));
  }

  invalidate(commit: Commit): void {
    for (const c of commit.collections()) {
      if (IRRELEVANT.has(c)) continue;
      for (const change of commit.changes(c)) {
        if (change.op === 'put') this.clearUser(change.doc.user_id);
        else {
          this.clearAll();
          return;
        }
      }
    }
  }
}
