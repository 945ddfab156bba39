import type { EndpointResponse } from '../../src/contracts/endpoints.js';
import { call, callWhole } from './api.js';

type FirstScreen = 'GET /user/profile' | 'GET /agent/queue';

/** How each first-screen read is made: the queue whole, every page of it. */
const READS: { [K in FirstScreen]: () => Promise<EndpointResponse<K>> } = {
  'GET /user/profile': () => call('GET /user/profile'),
  'GET /agent/queue': () => callWhole('GET /agent/queue', 'plans'),
};
const started = new Map<FirstScreen, Promise<unknown>>();

/**
 * Start the reads the first screen needs as soon as the session exists, side by side instead of
 * one after the other as the components mount.
 */
export function prefetch(names: FirstScreen[]): void {
  for (const name of names) {
    const p = READS[name]();
    // The component that takes it handles a refusal; an answer nobody takes is not an error.
    p.catch(() => {});
    started.set(name, p);
  }
}

/** The prefetched answer of a read, taken once; a fresh request when none was started. */
export function firstCall<K extends FirstScreen>(name: K): Promise<EndpointResponse<K>> {
  const p = started.get(name) as Promise<EndpointResponse<K>> | undefined;
  started.delete(name);
  return p ?? (READS[name]() as Promise<EndpointResponse<K>>);
}
