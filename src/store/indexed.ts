import { type Opening, SegmentedMap } from '../platform/segmented-map.js';
import type { Doc } from './schema.js';

/** The documents under one index value: one document alone (most values of a unique-ish field), or several by key. */
type Bucket = Doc | SegmentedMap<string, Doc>;

/**
 * One collection in memory: documents by primary key plus secondary indexes (value → documents by
 * key). The index holds the documents themselves, so a read by index costs no second lookup. A
 * value held by one document maps to that document directly: at 100,000 traces, an index on a
 * field that is nearly unique (a history row's trace uid) would otherwise cost 100,000 Maps.
 */
export class Indexed {
  private readonly docs: SegmentedMap<string, Doc>;
  private readonly idx = new Map<string, SegmentedMap<unknown, Bucket>>();

  /** `opening`, when given, is shared by every map of the collection, its indexes and buckets (see Opening). */
  constructor(
    private readonly key: string,
    indexes: readonly string[],
    private readonly opening?: Opening,
  ) {
    this.docs = new SegmentedMap(opening);
    for (const i of indexes) this.idx.set(i, new SegmentedMap(opening));
  }

  get size(): number {
    return this.docs.size;
  }

  get(id: string): Doc | undefined {
    return this.docs.get(id);
  }

  all(): Doc[] {
    return this.docs.valuesArray();
  }

  byIndex(index: string, value: unknown): Doc[] {
    const m = this.idx.get(index);
    if (!m) throw new Error(`no index ${index}`);
    const hit = m.get(value);
    if (!hit) return [];
    return hit instanceof SegmentedMap ? hit.valuesArray() : [hit];
  }

  /**
   * Store `doc` under its key. A document that replaces one keeps its place, and so does it in
   * each index whose value it leaves alone (an edit of a trace's text moves nothing): at 100,000
   * documents a bucket's delete and re-insert each ask its dozen segments, and the edited
   * document would otherwise sit elsewhere in its buckets than after a restart.
   */
  put(doc: Doc): void {
    const id = doc[this.key] as string;
    const old = this.docs.get(id);
    if (old) this.docs.replace(id, doc);
    else this.docs.append(id, doc);
    for (const [name, m] of this.idx) {
      const v = doc[name];
      if (old) {
        const was = old[name];
        if (was === v) {
          if (v !== undefined && v !== null) this.replaceIn(m, v, id, doc);
          continue;
        }
        this.removeFrom(m, was, id);
      }
      if (v !== undefined && v !== null) this.addTo(m, v, id, doc);
    }
  }

  /**
   * Put `doc` in place of the stored document of the same id, whose indexed fields it must share
   * (an equal document that shares memory with another): no index changes.
   */
  swap(id: string, doc: Doc): void {
    if (!this.docs.replace(id, doc)) return;
    for (const [name, m] of this.idx) {
      const v = doc[name];
      const b = m.get(v);
      if (b instanceof SegmentedMap) b.set(id, doc);
      else if (b) m.set(v, doc);
    }
  }

  delete(id: string): void {
    const old = this.docs.get(id);
    if (!old) return;
    this.unindex(id, old);
    this.docs.delete(id);
  }

  private unindex(id: string, doc: Doc): void {
    for (const [name, m] of this.idx) this.removeFrom(m, doc[name], id);
  }

  /** `id` is in no bucket of `v` (a new document, or one whose value changed): it is appended unasked. */
  private addTo(m: SegmentedMap<unknown, Bucket>, v: unknown, id: string, doc: Doc): void {
    const b = m.get(v);
    if (!b) m.append(v, doc);
    else if (b instanceof SegmentedMap) b.append(id, doc);
    else m.replace(v, new SegmentedMap<string, Doc>(this.opening).append(b[this.key] as string, b).append(id, doc));
  }

  private replaceIn(m: SegmentedMap<unknown, Bucket>, v: unknown, id: string, doc: Doc): void {
    const b = m.get(v);
    if (b instanceof SegmentedMap) b.replace(id, doc);
    else if (b) m.replace(v, doc);
  }

  private removeFrom(m: SegmentedMap<unknown, Bucket>, v: unknown, id: string): void {
    const b = m.get(v);
    if (!b) return;
    if (!(b instanceof SegmentedMap)) {
      if (b[this.key] === id) m.delete(v);
      return;
    }
    b.delete(id);
    if (!b.size) m.delete(v);
    else if (b.size === 1) m.set(v, b.first()!);
  }
}
