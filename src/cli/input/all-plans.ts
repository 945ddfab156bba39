import type { CallQuery } from '../../client/call-args.js';
import type { ApiClient } from '../../client/http.js';
import { wholeAnswer } from '../../platform/whole-answer.js';

/** The whole queue of `GET /agent/queue` for a filter, every page of it: what a person reviews or lists, or every plan an id may name. */
export const allPlans = (client: ApiClient, query: Omit<CallQuery<'GET /agent/queue'>, 'cursor'> = {}) =>
  wholeAnswer('plans', (cursor) => client.call('GET /agent/queue', { query: { ...query, ...(cursor ? { cursor } : {}) } }));
