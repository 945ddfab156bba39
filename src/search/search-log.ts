/**
 * How search reports to the daemon's log. A message is a warning unless it says `info`: the steps of
 * a healthy start (a model prepared, the index filled) are news, not problems.
 */
export type SearchLog = (msg: string, extra?: Record<string, unknown>, level?: 'info' | 'warn') => void;
