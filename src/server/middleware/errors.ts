import type { Context, Next } from 'koa';
import { AppError } from '../../errors.js';

interface Logger {
  error(obj: object, msg?: string): void;
}

/** Map errors thrown by libraries (koa-body, koa) to our model; anything unknown is a 500. */
function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as { status?: number; statusCode?: number; type?: string; message?: string; expose?: boolean };
  const status = e?.status ?? e?.statusCode;
  if (status === 413 || e?.type === 'entity.too.large') return new AppError(413, 'payload_too_large', 'The request body is too large.');
  // koa-body (through bourne) refuses a body with a "__proto__" key with a bare SyntaxError.
  if (err instanceof SyntaxError && /prototype property/.test(err.message))
    return new AppError(400, 'bad_request', 'The body has a "__proto__" key; no field of this API has that name.');
  if (e?.type === 'entity.parse.failed' || (status === 400 && /json|parse/i.test(e?.message ?? '')))
    return new AppError(400, 'bad_request', 'The body is not valid JSON.');
  if (status === 415 || e?.type === 'charset.unsupported' || e?.type === 'encoding.unsupported')
    return new AppError(400, 'bad_request', e.message ?? 'Unsupported body encoding.');
  if (status && status >= 400 && status < 500 && e.expose)
    return new AppError(status, status === 404 ? 'not_found' : 'bad_request', e.message ?? 'Bad request.');
  return new AppError(500, 'internal', 'Internal error.', { cause: err });
}

/** Mounted first: every failure leaves as the SPEC's envelope, 5xx messages never leak. */
export function errorEnvelope(logger: Logger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new AppError(404, 'not_found', `No route ${ctx.method} ${ctx.path}.`);
    } catch (err) {
      const e = toAppError(err);
      if (e.status >= 500)
        logger.error(
          { err: err instanceof Error ? { message: err.message, stack: err.stack } : String(err), trace_id: ctx.state.traceId, path: ctx.path },
          'request failed',
        );
      ctx.status = e.status;
      ctx.type = 'application/json';
      for (const [k, v] of Object.entries(e.headers ?? {})) ctx.set(k, v);
      ctx.body = {
        error: {
          code: e.code,
          message: e.expose ? e.message : 'Internal error.',
          trace_id: ctx.state.traceId,
          ...(e.details ? { details: e.details } : {}),
        },
      };
    }
  };
}
