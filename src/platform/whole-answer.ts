// No schema and nothing of the contracts here: the CLI's short commands import this (test/cli/import-graph.test.ts).

/**
 * The whole answer of a paged GET: `fetchPage` is called from the first page on, following
 * next_cursor, and the items under `key` of every page come back in one envelope (the last
 * page's, so its next_cursor is null). For a reader that needs everything, as a person's listing
 * or a replay of a trace's history does.
 */
export async function wholeAnswer<K extends string, P extends { [k in K]: unknown[] } & { next_cursor?: string | null }>(
  key: K,
  fetchPage: (cursor: string | undefined) => Promise<P>,
): Promise<P> {
  let page = await fetchPage(undefined);
  const items = page[key].slice();
  while (page.next_cursor) {
    page = await fetchPage(page.next_cursor);
    for (const item of page[key]) items.push(item);
  }
  return { ...page, [key]: items };
}
