import type { WebSocket } from 'ws';

/** Where the live feed is: an ApiClient (its address confirmed first, as daemon.json's may be stale) and its key. */
export interface LiveTarget {
  apiKey?: string;
  confirmedBaseUrl(): Promise<string>;
}

/**
 * Open the daemon's `/ws` live feed (optionally only some topics) with the client's key as a
 * bearer header: the one opener of `kairos watch` and the stdio MCP server. `ws` loads only here.
 */
export async function openLiveSocket(target: LiveTarget, topics?: string[]): Promise<{ ws: WebSocket; url: string }> {
  const [{ WebSocket }, base] = await Promise.all([import('ws'), target.confirmedBaseUrl()]);
  const url = `${base.replace(/^http/, 'ws')}/ws${topics?.length ? `?topics=${topics.join(',')}` : ''}`;
  const ws = new WebSocket(url, { headers: target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {} });
  return { ws, url };
}
