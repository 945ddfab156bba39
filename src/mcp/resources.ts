import type { EndpointName } from '../contracts/endpoints.js';
import { type PatchOperation, replay } from '../contracts/patch.js';
import { addDays, formatLocalDate } from '../time/local-date.js';
import { localDateOf } from '../time/zoned-time.js';
import { type ApiPort, callWhole } from './api-port.js';
import type { Caller } from './caller.js';

/** A resource whose URI never changes (the agenda, the summary). */
export interface FixedResource {
  name: string;
  uri: string;
  title: string;
  description: string;
  endpoint: EndpointName;
  read(port: ApiPort, caller: Caller): Promise<unknown>;
}

/** A family of resources named by a URI template (a trace by uid, a task's context). */
export interface TemplateResource {
  name: string;
  template: string;
  title: string;
  description: string;
  endpoint: EndpointName;
  read(port: ApiPort, caller: Caller, vars: Record<string, string>): Promise<unknown>;
  /** Concrete URIs to offer in resources/list (the most recent ones). */
  list?(port: ApiPort, caller: Caller): Promise<{ uri: string; name: string }[]>;
}

/** Events from the start of the caller's local today for `days` days. */
const agenda = (days: number) => (port: ApiPort, caller: Caller) => {
  const today = localDateOf(Date.now(), caller.timezone);
  return callWhole(port, 'GET /calendar/events', 'events', { start: formatLocalDate(today), end: formatLocalDate(addDays(today, days)) });
};

export const FIXED_RESOURCES: FixedResource[] = [
  {
    name: 'calendar-today',
    uri: 'kairos://calendar/today',
    title: "Today's agenda",
    description: "The person's events today (their time zone), recurring ones expanded.",
    endpoint: 'GET /calendar/events',
    read: agenda(1),
  },
  {
    name: 'calendar-week',
    uri: 'kairos://calendar/week',
    title: 'The next 7 days',
    description: "The person's events from today for 7 days (their time zone), recurring ones expanded.",
    endpoint: 'GET /calendar/events',
    read: agenda(7),
  },
  {
    name: 'context-summary',
    uri: 'kairos://context/summary',
    title: 'Memory summary',
    description: "A compressed summary of the person's memory (export_format=summary, 4,000 tokens at most).",
    endpoint: 'GET /context/export',
    read: (port, caller) => port.call('GET /context/export', { query: { user_id: caller.user_id, export_format: 'summary', max_token_count: '4000' } }),
  },
];

export const TEMPLATE_RESOURCES: TemplateResource[] = [
  {
    name: 'trace',
    template: 'kairos://trace/{uid}',
    title: 'A memory trace',
    description: 'One memory trace as it is now, by uid (rebuilt from its version history).',
    endpoint: 'GET /memory/history',
    read: async (port, _caller, { uid }) => {
      const h = await callWhole<{ versions: { patch: PatchOperation[] }[] }>(port, 'GET /memory/history', 'versions', { uid: uid! });
      return replay(h.versions.map((v) => v.patch));
    },
    list: async (port) => {
      const p = (await port.call('GET /memory/pull', { query: { limit: '20' } })) as { traces: { uid: string; task_id: string; type: string }[] };
      return p.traces.map((t) => ({ uri: `kairos://trace/${t.uid}`, name: `${t.type} in ${t.task_id}` }));
    },
  },
  {
    name: 'task-context',
    template: 'kairos://task/{task_id}/context',
    title: "A task's linked context",
    description: 'Everything memory holds for one task, with the traces and events they link to (export_format=linked).',
    endpoint: 'GET /context/export',
    read: (port, caller, { task_id }) => port.call('GET /context/export', { query: { user_id: caller.user_id, export_format: 'linked', task_id: task_id! } }),
  },
];
