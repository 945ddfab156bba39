/** How a store snapshots, keeps backups and logs; see Store.open. */
export interface StoreOptions {
  /**
   * Snapshot once at least this many operations were journalled and the journal has grown past
   * `snapshotJournalFraction` of db.json (as an append-only log is rewritten when it has grown by a
   * share of its base): a snapshot costs in proportion to the store, so it is taken after a number
   * of writes in proportion to the store too, and its cost per write stays the same at any size.
   */
  snapshotEveryOps?: number;
  /** The journal's size, as a share of db.json's, past which a snapshot is due (default 0.25). */
  snapshotJournalFraction?: number;
  /** Also fold the journal in this long after the first unsnapshotted write, at the first quiet second. */
  snapshotEveryMs?: number;
  /** How many previous good db.json files to keep in backups/. */
  backups?: number;
  log?: (msg: string, extra?: Record<string, unknown>) => void;
  /**
   * Called as an open reads db.json and the journal: bytes read so far, of all there are (also
   * while it files what it read, with the same figures).
   */
  loading?: (readBytes: number, totalBytes: number) => void;
}

/** The options with every default filled in. */
export type ResolvedStoreOptions = Required<Omit<StoreOptions, 'log' | 'loading'>> & Pick<StoreOptions, 'log' | 'loading'>;

export function withDefaults(o: StoreOptions): ResolvedStoreOptions {
  return {
    snapshotEveryOps: o.snapshotEveryOps ?? 2000,
    snapshotEveryMs: o.snapshotEveryMs ?? 30_000,
    snapshotJournalFraction: o.snapshotJournalFraction ?? 0.25,
    backups: o.backups ?? 3,
    log: o.log,
    loading: o.loading,
  };
}
