import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import type { StoredTrace } from '../../contracts/memory.js';
import type { JournalOp } from '../../store/journal.js';
import type { Store } from '../../store/store.js';

/** A hit of one index: the trace uid and its raw (unnormalized) relevance. */
export interface IndexHit {
  uid: string;
  score: number;
}

/**
 * What the memory service needs from a search index. The keyword index below implements it; the
 * semantic index (issue 9) sits next to it behind the same seam.
 */
export interface TraceIndex {
  upsert(trace: StoredTrace): void;
  remove(uid: string): void;
  /** Hits among one user's traces, best first. */
  search(userId: string, query: string): IndexHit[];
}

type Doc = { id: string; content: string; notes: string; task_id: string; tempo_tag: string; type: string };

// Stemming on both sides lets "meetings" find "meeting" and "planned" find "planning".
const processTerm = (term: string) => {
  const t = term.toLowerCase();
  return t.length > 2 ? stemmer(t) : t;
};

const toDoc = (t: StoredTrace): Doc => ({
  id: t.uid,
  content: t.content,
  notes: t.notes ?? '',
  task_id: t.task_id,
  tempo_tag: t.tempo_tag ?? '',
  type: t.type,
});

/**
 * BM25 keyword index (minisearch) with prefix and fuzzy matching, one per user so that scores
 * come from that user's own corpus and no query ever touches another user's traces.
 */
export class KeywordIndex implements TraceIndex {
  private readonly perUser = new Map<string, MiniSearch<Doc>>();
  private readonly ownerOf = new Map<string, string>();

  private indexOf(userId: string): MiniSearch<Doc> {
    let ms = this.perUser.get(userId);
    if (!ms) {
      ms = new MiniSearch<Doc>({
        fields: ['content', 'notes', 'task_id', 'tempo_tag', 'type'],
        processTerm,
        searchOptions: {
          boost: { content: 2, notes: 1, task_id: 1, tempo_tag: 1, type: 0.5 },
          prefix: (term) => term.length >= 3,
          fuzzy: (term) => (term.length >= 4 ? 0.2 : false),
          combineWith: 'OR',
        },
      });
      this.perUser.set(userId, ms);
    }
    return ms;
  }

  upsert(trace: StoredTrace): void {
    const prevOwner = this.ownerOf.get(trace.uid);
    if (prevOwner !== undefined && prevOwner !== trace.user_id) this.remove(trace.uid);
    const ms = this.indexOf(trace.user_id);
    if (ms.has(trace.uid)) ms.replace(toDoc(trace));
    else ms.add(toDoc(trace));
    this.ownerOf.set(trace.uid, trace.user_id);
  }

  remove(uid: string): void {
    const owner = this.ownerOf.get(uid);
    if (owner === undefined) return;
    const ms = this.perUser.get(owner);
    if (ms?.has(uid)) ms.discard(uid);
    this.ownerOf.delete(uid);
  }

  search(userId: string, query: string): IndexHit[] {
    const ms = this.perUser.get(userId);
    if (!ms) return [];
    return ms.search(query).map((r) => ({ uid: String(r.id), score: r.score }));
  }

  get size(): number {
    return this.ownerOf.size;
  }
}

/**
 * Keep an index in step with the store: filled once from what is stored, then updated from every
 * committed transaction, so traces written by any area (agent, calendar) are searchable too.
 */
export function followStore(store: Store, index: TraceIndex): () => void {
  for (const t of store.all<StoredTrace>('traces')) index.upsert(t);
  return store.onCommit((ops: JournalOp[]) => {
    for (const op of ops) {
      if (op.op === 'put' && op.c === 'traces') index.upsert(op.doc as StoredTrace);
      else if (op.op === 'del' && op.c === 'traces') index.remove(op.id);
    }
  });
}
