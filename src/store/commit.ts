import type { JournalOp } from './journal.js';
import { type Change, COLLECTION_NAMES, type CollectionName, type DocOf } from './schema.js';

/**
 * One durable transaction as its followers see it: typed changes per collection, in the order
 * the transaction made them. The journal's record format stays the store's own.
 */
export class Commit {
  constructor(private readonly ops: readonly JournalOp[]) {}

  /** The changes to one collection (puts carry the whole new document; deletes only the id). */
  changes<C extends CollectionName>(c: C): Change<C>[] {
    const out: Change<C>[] = [];
    for (const op of this.ops) {
      if (op.op === 'put' && op.c === c) out.push({ op: 'put', doc: op.doc as DocOf<C> });
      else if (op.op === 'del' && op.c === c) out.push({ op: 'del', id: op.id });
    }
    return out;
  }

  /** The documents one collection's puts wrote. */
  puts<C extends CollectionName>(c: C): DocOf<C>[] {
    return this.changes(c).flatMap((x) => (x.op === 'put' ? [x.doc] : []));
  }

  /** The collections this transaction changed. */
  collections(): CollectionName[] {
    return COLLECTION_NAMES.filter((c) => this.ops.some((o) => o.op !== 'meta' && o.c === c));
  }
}
