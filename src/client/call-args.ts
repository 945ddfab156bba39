import type { z } from 'zod';
import type { EndpointName, Endpoints, SchemaOf } from '../contracts/endpoints.js';

/** A non-JSON request body (e.g. iCalendar text) with its content type. */
export interface RawBody {
  text: string;
  type: string;
}

/**
 * A query as the client sends it: each value in the wire form the schema parses (`'true'`), or as
 * the value it parses to (`true`, `20`), which becomes that wire form again as a string.
 */
export type QueryArg<S extends z.ZodType> = {
  [K in keyof z.input<S>]: z.input<S>[K] | (K extends keyof z.output<S> ? z.output<S>[K] : never) | undefined;
};

type BodyPart<K extends EndpointName> =
  SchemaOf<K, 'body'> extends infer B extends z.ZodType
    ? Endpoints[K] extends { rawBodyTypes: string[] }
      ? { body: z.input<B>; raw?: undefined } | { raw: RawBody; body?: undefined }
      : { body: z.input<B> }
    : { body?: undefined };

// `{} extends T` is how a type asks "may every key of T be left out?": the empty object type is meant.
type QueryPart<K extends EndpointName> =
  // biome-ignore lint/complexity/noBannedTypes: see above
  SchemaOf<K, 'query'> extends infer Q extends z.ZodType ? ({} extends QueryArg<Q> ? { query?: QueryArg<Q> } : { query: QueryArg<Q> }) : { query?: undefined };

type ParamsPart<K extends EndpointName> = SchemaOf<K, 'params'> extends infer P extends z.ZodType ? { params: z.input<P> } : { params?: undefined };

/** The arguments of `ApiClient.call(name, args)`: what the endpoint's schemas accept, nothing else. */
export type CallArgs<K extends EndpointName> = BodyPart<K> & QueryPart<K> & ParamsPart<K> & { headers?: Record<string, string> };

/** The query of an endpoint as `call` takes it. */
export type CallQuery<K extends EndpointName> = QueryArg<NonNullable<SchemaOf<K, 'query'>>>;

/** `call(name)` may leave the arguments out when the endpoint needs none. */
// biome-ignore lint/complexity/noBannedTypes: `{} extends` asks whether every argument is optional
export type CallRest<K extends EndpointName> = {} extends CallArgs<K> ? [args?: CallArgs<K>] : [args: CallArgs<K>];
