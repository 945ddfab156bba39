/**
 * One error model end to end: services throw AppError, the server writes the SPEC's envelope,
 * the client turns the envelope back into an AppError, and the CLI maps it to an exit code.
 */
export interface ErrorDetail {
  path: string;
  message: string;
  [extra: string]: unknown;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: ErrorDetail[];
  /** Whether the message may be shown to the client (false for 5xx: it may hold internals). */
  readonly expose: boolean;
  readonly headers?: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    opts: { details?: ErrorDetail[]; headers?: Record<string, string>; cause?: unknown; expose?: boolean } = {},
  ) {
    super(message, { cause: opts.cause });
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.details = opts.details;
    this.expose = opts.expose ?? status < 500;
    this.headers = opts.headers;
  }
}

export const badRequest = (message: string) => new AppError(400, 'bad_request', message);
export const unauthorized = (message = 'A valid API key or token is required.') => new AppError(401, 'unauthorized', message);
export const forbidden = (message: string) => new AppError(403, 'forbidden', message);
export const notFound = (message: string) => new AppError(404, 'not_found', message);
export const conflict = (message: string, code = 'conflict', details?: ErrorDetail[]) => new AppError(409, code, message, { details });
export const validationFailed = (message: string, details?: ErrorDetail[], code = 'validation_failed') => new AppError(422, code, message, { details });
export const internal = (message = 'Internal error.') => new AppError(500, 'internal', message);
/** The disk refused a write (ENOSPC, EFBIG, EDQUOT): nothing of it was applied. The message holds no internals. */
export const storageFull = (cause?: unknown) =>
  new AppError(507, 'storage_full', 'The disk is full: the write was not applied. Reads go on; writes resume when space returns.', { cause, expose: true });

/** Exit codes of SPEC §6. */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  unreachable: 3,
  auth: 4,
  notFound: 5,
  invalid: 6,
  rateLimited: 7,
} as const;

export function exitCodeFor(err: unknown): number {
  if (err instanceof AppError) {
    if (err.code === 'daemon_unreachable' || err.code === 'daemon_timeout') return ExitCode.unreachable;
    if (err.code === 'usage') return ExitCode.usage;
    switch (err.status) {
      case 401:
      case 403:
        return ExitCode.auth;
      case 404:
        return ExitCode.notFound;
      case 409:
      case 413:
      case 422:
      case 400:
        return ExitCode.invalid;
      case 429:
        return ExitCode.rateLimited;
    }
  }
  return ExitCode.failure;
}
