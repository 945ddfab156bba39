import type { Indexed } from './indexed.js';
import type { Interner } from './intern.js';
import type { JournalEntry, JournalOp } from './journal.js';
import { COLLECTIONS, type CollectionName, type Doc, type DocOf, type IndexOf } from './schema.js';

/** Typed reads, the same on the store (durable state) and in a transaction (its staged view). */
export interface Reads {
  get<C extends CollectionName>(c: C, id: string): DocOf<C> | undefined;
  byIndex<C extends CollectionName>(c: C, index: IndexOf<C>, value: unknown): DocOf<C>[];
  all<C extends CollectionName>(c: C): DocOf<C>[];
  getMeta<T>(k: string): T | undefined;
}

/** Reads and staged writes of one transaction; see Store.transact. */
export interface Tx extends Reads {
  put<C extends CollectionName>(c: C, doc: DocOf<C>): void;
  delete(c: CollectionName, id: string): void;
  setMeta(k: string, v: unknown): void;
}

/** A write staged by a transaction whose journal record is not durable yet. */
interface PendingWrite<T> {
  value: T;
  /** The transaction that wrote it last: only that one's outcome removes it. */
  seq: number;
}

/** Stored documents are shared with readers; freezing them turns an accidental mutation into an error. */
export function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

/** The id of a document of collection `c`. */
export function keyOf(c: CollectionName, doc: Doc): string {
  const id = doc[COLLECTIONS[c].key];
  if (typeof id !== 'string' || !id) throw new Error(`${c}: document without a string ${COLLECTIONS[c].key}`);
  return id;
}

/** The durable state a transaction's view starts from. */
export interface DurableState {
  col(c: CollectionName): Indexed;
  meta(k: string): unknown;
}

/**
 * The writes of transactions still on their way to disk, and the staged view every new
 * transaction starts from: the durable state under those pending writes, as a single writer
 * would see it. A transaction's writes leave once the journal has synced it or refused it.
 */
export class Staging {
  private readonly pendingDocs = new Map<CollectionName, Map<string, PendingWrite<Doc | null>>>();
  private readonly pendingMeta = new Map<string, PendingWrite<unknown>>();

  constructor(
    private readonly durable: DurableState,
    private readonly interner: Interner,
  ) {}

  /** Make a transaction's writes visible to the transactions staged after it. */
  add(entry: JournalEntry): void {
    for (const op of entry.ops) {
      if (op.op === 'meta') this.pendingMeta.set(op.k, { value: op.v, seq: entry.seq });
      else {
        const c = op.c as CollectionName;
        let m = this.pendingDocs.get(c);
        if (!m) this.pendingDocs.set(c, (m = new Map()));
        if (op.op === 'put') m.set(keyOf(c, op.doc), { value: deepFreeze(op.doc), seq: entry.seq });
        else m.set(op.id, { value: null, seq: entry.seq });
      }
    }
  }

  /** Forget the pending writes this transaction was the last to make. */
  drop(entry: JournalEntry): void {
    for (const op of entry.ops) {
      if (op.op === 'meta') {
        if (this.pendingMeta.get(op.k)?.seq === entry.seq) this.pendingMeta.delete(op.k);
        continue;
      }
      const m = this.pendingDocs.get(op.c as CollectionName);
      const id = op.op === 'put' ? keyOf(op.c as CollectionName, op.doc) : op.id;
      if (m?.get(id)?.seq === entry.seq) m.delete(id);
    }
  }

  // The view a transaction starts from: the durable state under the pending writes.

  private viewGet(c: CollectionName, id: string): Doc | undefined {
    const p = this.pendingDocs.get(c);
    if (p?.has(id)) return p.get(id)!.value ?? undefined;
    return this.durable.col(c).get(id);
  }

  private viewByIndex(c: CollectionName, index: string, value: unknown): Doc[] {
    return overlaid(c, this.durable.col(c).byIndex(index, value), this.pendingDocs.get(c), (w) => (w.value && w.value[index] === value ? w.value : undefined));
  }

  private viewAll(c: CollectionName): Doc[] {
    return overlaid(c, this.durable.col(c).all(), this.pendingDocs.get(c), (w) => w.value ?? undefined);
  }

  private viewMeta(k: string): unknown {
    const p = this.pendingMeta.get(k);
    return p ? p.value : this.durable.meta(k);
  }

  /** A transaction over the view: its reads see its own writes, which it records as journal ops. */
  stage(): { tx: Tx; ops: JournalOp[] } {
    const ops: JournalOp[] = [];
    const overlay = new Map<CollectionName, Map<string, Doc | null>>();
    const metaOverlay = new Map<string, unknown>();
    const layer = (c: CollectionName) => {
      let m = overlay.get(c);
      if (!m) overlay.set(c, (m = new Map()));
      return m;
    };
    // The generic signatures are the Tx interface's; inside, documents are plain Docs.
    const tx = {
      get: (c: CollectionName, id: string) => {
        const o = overlay.get(c);
        if (o?.has(id)) return o.get(id) ?? undefined;
        return this.viewGet(c, id);
      },
      byIndex: (c: CollectionName, index: string, value: unknown) =>
        overlaid(c, this.viewByIndex(c, index, value), overlay.get(c), (d) => (d && d[index] === value ? d : undefined)),
      all: (c: CollectionName) => overlaid(c, this.viewAll(c), overlay.get(c), (d) => d ?? undefined),
      put: (c: CollectionName, doc: Doc) => {
        const copy = structuredClone(doc);
        this.interner.doc(copy);
        layer(c).set(keyOf(c, copy), copy);
        ops.push({ op: 'put', c, doc: copy });
      },
      delete: (c: CollectionName, id: string) => {
        layer(c).set(id, null);
        ops.push({ op: 'del', c, id });
      },
      getMeta: (k: string) => (metaOverlay.has(k) ? metaOverlay.get(k) : this.viewMeta(k)),
      setMeta: (k: string, v: unknown) => {
        metaOverlay.set(k, v);
        ops.push({ op: 'meta', k, v });
      },
    } as unknown as Tx;
    return { tx, ops };
  }
}

/** `base` with the documents `layer` writes over it: those it replaces or deletes left out, those `pick` keeps added. */
function overlaid<W>(c: CollectionName, base: Doc[], layer: Map<string, W> | undefined, pick: (w: W) => Doc | undefined): Doc[] {
  if (!layer?.size) return base;
  const key = COLLECTIONS[c].key;
  const out = base.filter((d) => !layer.has(d[key] as string));
  for (const w of layer.values()) {
    const d = pick(w);
    if (d) out.push(d);
  }
  return out;
}
