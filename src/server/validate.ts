import type { z } from 'zod';
import { AppError, type ErrorDetail, validationFailed } from '../errors.js';

/**
 * Parse with a schema; a failure becomes 422 with one `{path, message}` per problem. A schema may
 * name its own code on an issue (`params: {code}` in a refinement) — the tempo tag grammar answers
 * `invalid_tempo_tag` that way.
 */
export function parseOr422<T>(schema: z.ZodType<T>, value: unknown, where: 'body' | 'query' | 'params'): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const details: ErrorDetail[] = r.error.issues.map((i) => ({
    path: i.path.length ? i.path.join('.') : where,
    message: i.message,
  }));
  const special = r.error.issues.map((i) => (i as { params?: { code?: string } }).params?.code).find((c) => typeof c === 'string');
  const summary = details.map((d) => `${d.path}: ${d.message}`).join('; ');
  if (special) throw new AppError(422, special, `Invalid ${where}: ${summary}`, { details });
  throw validationFailed(`Invalid ${where}: ${summary}`, details);
}
