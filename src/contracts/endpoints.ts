import { z } from 'zod';
import { CreatedKey, CreateKeyRequest, KeyIdParams, KeyList, LoginRequest, LoginResponse, RevokedKey, WhoAmI } from './auth.js';
import {
  CalendarEvent,
  ExportQuery as CalendarExportQuery,
  CreatedEvent,
  CreateEventRequest,
  EditEventRequest,
  EventList,
  EventsQuery,
  FeedQuery,
  FreeTime,
  FreeTimeQuery,
  ICS_MIME,
  ImportQuery,
  ImportReport,
  ImportRequest,
  Removed,
  RemoveQuery,
} from './calendar.js';
import { ChangeList, ChangesQuery, RemoveManyRequest, RemoveManyResponse, UndoRequest, UndoResponse } from './changes.js';
import { EventLoopGap } from './debug.js';
import { CheckpointsQuery, CheckpointsResponse, ExportQuery, ExportResponse } from './export.js';
import {
  EditRequest,
  HistoryQuery,
  HistoryResponse,
  MemoryTrace,
  PullQuery,
  PullResponse,
  PushRequest,
  PushResponse,
  SearchRequest,
  SearchResponse,
  TraceDumpRequest,
  TraceDumpResponse,
  TraceSummaryRequest,
  TraceSummaryResponse,
} from './memory.js';
import { OAuthProviderList, OAuthProviderParams, OAuthProviderRemoved } from './oauth.js';
import { PreviewRequest, PreviewResponse, RespondRequest, RespondResponse } from './planner.js';
import {
  ApproveRequest,
  ApproveResponse,
  ExecuteRequest,
  ExecuteResponse,
  FeedbackRequest,
  Plan,
  PlanRequest,
  QueueQuery,
  QueueResponse,
  RejectRequest,
} from './plans.js';
import { AgentStatus } from './status.js';
import {
  AccountList,
  AccountNameParams,
  AccountRemoved,
  AddAccountRequest,
  CaldavAccount,
  SubscribeRequest,
  SubscriptionCreated,
  SubscriptionIdParams,
  SubscriptionList,
  SubscriptionRemoved,
  SyncRunList,
  SyncRunQuery,
} from './sync.js';
import { Health, VersionInfo } from './system.js';
import { AdjustRequest, TagList, TempoProfile, TempoQuery } from './tempo.js';
import { ProfileQuery, RegisterRequest, SetPasswordRequest, UpdateUserRequest, UserProfile } from './users.js';
import { PageCode, PageSession, PageSignedOut, PageSignIn } from './web.js';

/**
 * The request/response half of one endpoint, shared by the server (which adds auth, docs and the
 * handler: src/server/routes/) and the client (which calls it by name: ApiClient.call).
 */
export interface EndpointSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
  /** The `{name}` segments of the path. */
  params?: z.ZodType;
  response: z.ZodType;
  /** Success status when it is not 200. */
  status?: number;
  /** Non-JSON request bodies it also takes (e.g. `text/calendar`); they arrive as a string. */
  rawBodyTypes?: string[];
  /** Response content type when it is not JSON (e.g. `text/calendar`). */
  produces?: string;
}

const ICS_TEXT = `${ICS_MIME}; charset=utf-8`;

/**
 * Every endpoint of the API, named `METHOD /path` in the OpenAPI form of the path. The name is the
 * address: a client needs no table at run time (and so no zod) to call one.
 */
export const endpoints = {
  'GET /health': { response: Health },
  'GET /version': { response: VersionInfo },
  'GET /openapi.json': { response: z.record(z.string(), z.unknown()) },
  'GET /agent/status': { response: AgentStatus },

  'POST /auth/keys': { body: CreateKeyRequest, response: CreatedKey, status: 201 },
  'GET /auth/keys': { response: KeyList },
  'GET /auth/whoami': { response: WhoAmI },
  'POST /auth/keys/{id}/rotate': { params: KeyIdParams, response: CreatedKey },
  'DELETE /auth/keys/{id}': { params: KeyIdParams, response: RevokedKey },
  'POST /user/login': { body: LoginRequest, response: LoginResponse },

  'POST /app/codes': { response: PageCode, status: 201 },
  'POST /app/session': { body: PageSignIn, response: PageSession },
  'GET /app/session': { response: PageSession },
  'DELETE /app/session': { response: PageSignedOut },

  'POST /user/register': { body: RegisterRequest, response: UserProfile, status: 201 },
  'GET /user/profile': { query: ProfileQuery, response: UserProfile },
  'PATCH /user/update': { body: UpdateUserRequest, response: UserProfile },
  'POST /user/password': { body: SetPasswordRequest, response: UserProfile },

  'POST /memory/push': { body: PushRequest, response: PushResponse, status: 201 },
  'GET /memory/pull': { query: PullQuery, response: PullResponse },
  'PATCH /memory/edit': { body: EditRequest, response: MemoryTrace },
  'GET /memory/history': { query: HistoryQuery, response: HistoryResponse },
  'POST /memory/search': { body: SearchRequest, response: SearchResponse },

  'POST /chat/plan-preview': { body: PreviewRequest, response: PreviewResponse },
  'POST /chat/respond': { body: RespondRequest, response: RespondResponse },
  'POST /chat/trace-summary': { body: TraceSummaryRequest, response: TraceSummaryResponse },
  'POST /debug/trace-dump': { body: TraceDumpRequest, response: TraceDumpResponse },
  'GET /debug/event-loop': { response: EventLoopGap },

  'POST /calendar/create': { body: CreateEventRequest, response: CreatedEvent, status: 201 },
  'GET /calendar/events': { query: EventsQuery, response: EventList },
  'GET /calendar/free': { query: FreeTimeQuery, response: FreeTime },
  'PATCH /calendar/edit': { body: EditEventRequest, response: CalendarEvent },
  'DELETE /calendar/remove': { query: RemoveQuery, response: Removed },
  'POST /calendar/remove-many': { body: RemoveManyRequest, response: RemoveManyResponse },
  'GET /changes': { query: ChangesQuery, response: ChangeList },
  'POST /changes/undo': { body: UndoRequest, response: UndoResponse },
  'POST /calendar/import': { query: ImportQuery, body: ImportRequest, rawBodyTypes: [ICS_MIME], response: ImportReport },
  'GET /calendar/export.ics': { query: CalendarExportQuery, response: z.string(), produces: ICS_TEXT },
  'GET /calendar/feed.ics': { query: FeedQuery, response: z.string(), produces: ICS_TEXT },
  'POST /calendar/subscriptions': { body: SubscribeRequest, response: SubscriptionCreated, status: 201 },
  'GET /calendar/subscriptions': { response: SubscriptionList },
  'POST /calendar/subscriptions/{id}/refresh': { params: SubscriptionIdParams, response: SubscriptionCreated },
  'DELETE /calendar/subscriptions/{id}': { params: SubscriptionIdParams, response: SubscriptionRemoved },
  'POST /calendar/sync/accounts': { body: AddAccountRequest, response: CaldavAccount, status: 201 },
  'GET /calendar/sync/accounts': { response: AccountList },
  'POST /calendar/sync/run': { query: SyncRunQuery, response: SyncRunList },
  'DELETE /calendar/sync/accounts/{name}': { params: AccountNameParams, response: AccountRemoved },
  'GET /calendar/sync/oauth': { response: OAuthProviderList },
  'DELETE /calendar/sync/oauth/{name}': { params: OAuthProviderParams, response: OAuthProviderRemoved },

  'GET /tempo/tags': { query: TempoQuery, response: TagList },
  'GET /tempo/profile': { query: TempoQuery, response: TempoProfile },
  'POST /tempo/adjust': { body: AdjustRequest, response: TempoProfile },

  'GET /context/export': { query: ExportQuery, response: ExportResponse },
  'GET /context/checkpoints': { query: CheckpointsQuery, response: CheckpointsResponse },

  'POST /agent/plan': { body: PlanRequest, response: Plan, status: 201 },
  'GET /agent/queue': { query: QueueQuery, response: QueueResponse },
  'GET /agent/plans/{plan_id}': { params: z.object({ plan_id: z.string().min(1) }), response: Plan },
  'POST /agent/approve': { body: ApproveRequest, response: ApproveResponse },
  'POST /agent/reject': { body: RejectRequest, response: Plan },
  'POST /agent/execute': { body: ExecuteRequest, response: ExecuteResponse },
  'POST /agent/feedback': { body: FeedbackRequest, response: MemoryTrace },
} satisfies Record<string, EndpointSchemas>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

/** `'GET /memory/pull'` → `'get'`. */
export type MethodOf<K extends string> = K extends `${infer M} ${string}` ? Lowercase<M> : never;
/** `'GET /memory/pull'` → `'/memory/pull'`. */
export type PathOf<K extends string> = K extends `${string} ${infer P}` ? P : never;

/** A schema of an endpoint, or `undefined` when it has none. */
export type SchemaOf<K extends EndpointName, F extends keyof EndpointSchemas> = Endpoints[K] extends { [X in F]: infer S extends z.ZodType } ? S : undefined;

/** What the endpoint answers (after the server's schema has shaped it). */
export type EndpointResponse<K extends EndpointName> = z.output<Endpoints[K]['response']>;

/** The JSON body the endpoint accepts (before its schema's defaults and transforms). */
export type EndpointBody<K extends EndpointName> = z.input<NonNullable<SchemaOf<K, 'body'>>>;

/**
 * The endpoint with its method and path, to spread into a server route:
 * `route({ ...endpoint('GET /memory/pull'), tag, summary, auth, handler })`.
 */
export function endpoint<K extends EndpointName>(name: K): Endpoints[K] & { method: MethodOf<K>; path: PathOf<K> } {
  const space = name.indexOf(' ');
  return { method: name.slice(0, space).toLowerCase() as MethodOf<K>, path: name.slice(space + 1) as PathOf<K>, ...endpoints[name] };
}
