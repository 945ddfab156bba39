import { createHash } from 'node:crypto';
import type { Commit } from '../../store/commit.js';
import type { Store } from '../../store/store.js';
import type { StoredPlan } from './plan.js';

/**
 * Fields whose change is not an edit of what execution produced: bookkeeping, and feedback (a
 * rating or a note on a reflection does not change the reflection).
 */
const NOT_SUBSTANCE = new Set(['version', 'updated_at', 'created_at', 'feedback_rating', 'notes', 'conflicts']);

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

/** A digest of a document's substance, to tell a real edit from a version bump. */
export function fingerprint(doc: Record<string, unknown>): string {
  const substance = Object.fromEntries(Object.entries(doc).filter(([k]) => !NOT_SUBSTANCE.has(k)));
  return createHash('sha256')
    .update(JSON.stringify(canonical(substance)))
    .digest('base64url')
    .slice(0, 22);
}

/**
 * Which plan produced each event and trace: built from the store once, then kept up to date from
 * the plans every committed transaction writes.
 */
export class ProducedIndex {
  private readonly owner = new Map<string, string>();

  constructor(store: Store) {
    for (const p of store.all('plans')) this.track(p);
  }

  private track(p: StoredPlan): void {
    for (const x of p.produced ?? []) this.owner.set(`${x.collection}:${x.uid}`, p.plan_id);
  }

  /** Call from store.commits. */
  follow(commit: Commit): void {
    for (const p of commit.puts('plans')) this.track(p);
  }

  planOf(collection: 'events' | 'traces', uid: string): string | undefined {
    return this.owner.get(`${collection}:${uid}`);
  }
}
