import type { Doc } from './schema.js';

/**
 * One collection in memory: documents by primary key plus secondary indexes (value → documents by
 * key). The index holds the documents themselves, so a read by index costs no second lookup.
 */
export class Indexed {
  private readonly docs = new Map<string, Doc>();
  private readonly idx = new Map<string, Map<unknown, Map<string, Doc>>>();

  constructor(
    private readonly key: string,
    indexes: readonly string[],
  ) {
    for (const i of indexes) this.idx.set(i, new Map());
  }

  get size(): number {
    return this.docs.size;
  }

  get(id: string): Doc | undefined {
    return this.docs.get(id);
  }

  all(): Doc[] {
    return [...this.docs.values()];
  }

  byIndex(index: string, value: unknown): Doc[] {
    const m = this.idx.get(index);
    if (!m) throw new Error(`no index ${index}`);
    const hit = m.get(value);
    return hit ? [...hit.values()] : [];
  }

  put(doc: Doc): void {
    const id = doc[this.key] as string;
    const old = this.docs.get(id);
    if (old) this.unindex(id, old);
    this.docs.set(id, doc);
    for (const [name, m] of this.idx) {
      const v = doc[name];
      if (v === undefined || v === null) continue;
      let s = m.get(v);
      if (!s) m.set(v, (s = new Map()));
      s.set(id, doc);
    }
  }

  delete(id: string): void {
    const old = this.docs.get(id);
    if (!old) return;
    this.unindex(id, old);
    this.docs.delete(id);
  }

  private unindex(id: string, doc: Doc): void {
    for (const [name, m] of this.idx) {
      const v = doc[name];
      const s = m.get(v);
      if (!s) continue;
      s.delete(id);
      if (!s.size) m.delete(v);
    }
  }
}
