import type { CallQuery } from '../../client/call-args.js';
import type { ApiClient } from '../../client/http.js';
import { wholeAnswer } from '../../platform/whole-answer.js';

/** A whole listing of `GET /calendar/events`, every page of it: what the person asked to see, or every event an id may name. */
export const allEvents = (client: ApiClient, query: Omit<CallQuery<'GET /calendar/events'>, 'cursor'> = {}) =>
  wholeAnswer('events', (cursor) => client.call('GET /calendar/events', { query: { ...query, ...(cursor ? { cursor } : {}) } }));
