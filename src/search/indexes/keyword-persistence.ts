import { encodeKeywordBlock, encodeKeywordHead, type KeywordFileReader, type KeywordRow } from './keyword-file.js';
import type { SaveJob } from './persisted-file.js';

/** What the keyword index lends its file while it is read: its term numbers, and a trace taken in with terms read from the file. */
export interface KeywordFileIndex {
  termId(term: string): number;
  /** Take a row in (its ids already the index's numbers) if its trace still has its tag; false when it has not. */
  adopt(row: KeywordRow): boolean;
}

/**
 * Reads a persisted keyword index into a live one a block at a time (step), each row taken in
 * only while its trace still matches it. A damaged block ends the reading there: what is not
 * taken in is indexed from the store afterwards.
 */
export class KeywordFileLoader {
  /** The index's number of each of the file's terms. */
  private readonly ids: number[] = [];
  adopted = 0;
  stale = 0;
  private over = false;

  constructor(
    private readonly reader: KeywordFileReader,
    private readonly index: KeywordFileIndex,
    private readonly rejected: (reason: string) => void,
  ) {}

  /**
   * Read on for about `budgetMs` (Infinity: to the end); true once the file is over. It never
   * throws: a read that fails (the disk, a file cut short under it) ends the reading like a
   * damaged block, and what is not taken in is indexed from the store.
   */
  step(budgetMs: number): boolean {
    const start = performance.now();
    try {
      while (!this.over) {
        const block = this.reader.next();
        if (block === null) this.over = true;
        else if ('rejected' in block) {
          this.rejected(block.rejected);
          this.over = true;
        } else this.take(block);
        if (performance.now() - start > budgetMs) break;
      }
    } catch (e) {
      this.rejected(`unreadable: ${(e as Error).message}`);
      this.over = true;
    }
    return this.over;
  }

  close(): Promise<void> {
    this.over = true;
    return this.reader.close();
  }

  private take(block: { terms: string[]; rows: KeywordRow[] }): void {
    for (const t of block.terms) this.ids.push(this.index.termId(t));
    for (const row of block.rows) {
      const ids = row.ids as Uint32Array;
      for (let k = 0; k < ids.length; k++) {
        const id = this.ids[ids[k]!];
        if (id === undefined) {
          this.rejected('a term the file does not name');
          this.over = true;
          return;
        }
        ids[k] = id;
      }
      if (this.index.adopt(row)) this.adopted++;
      else this.stale++;
    }
  }
}

/**
 * A save of a keyword index: `next()` gives the rows of the next slice (empty: done), read in
 * one turn, with the index's term numbers; the file numbers terms in the order they first appear.
 */
export function keywordSaveJob(next: () => KeywordRow[], term: (id: number) => string, done: () => void): SaveJob {
  return {
    body: async (write, throwIfStopped) => {
      await write(encodeKeywordHead());
      const fileId = new Map<number, number>();
      for (;;) {
        throwIfStopped();
        const rows = next();
        if (!rows.length) break;
        const terms: string[] = [];
        const out = rows.map((r) => {
          const ids = new Uint32Array(r.ids.length);
          for (let k = 0; k < ids.length; k++) {
            let id = fileId.get(r.ids[k]!);
            if (id === undefined) {
              id = fileId.size;
              fileId.set(r.ids[k]!, id);
              terms.push(term(r.ids[k]!));
            }
            ids[k] = id;
          }
          return { ...r, ids };
        });
        await write(encodeKeywordBlock(terms, out));
      }
    },
    done,
  };
}
