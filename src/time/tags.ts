import { z } from 'zod';

/**
 * The tempo tag grammar, used everywhere a tag is accepted: `@label` (lowercase letters, digits,
 * dashes) or a duration block (`25m`, `90m`, `2h`, `1h30m`). Input is normalized to lowercase.
 */
const LABEL = /^@[a-z0-9]+(?:-[a-z0-9]+)*$/;
const DURATION = /^(?:(\d{1,3})h)?(?:(\d{1,4})m)?$/;

export type TempoTag = string;

export const TEMPO_TAG_HINT = 'use @label (lowercase letters, digits, dashes) or a duration block such as 25m, 2h, 1h30m';

export function normalizeTag(input: string): string {
  return input.trim().toLowerCase();
}

/** Minutes of a duration block, or undefined for a label or anything invalid. */
export function tagMinutes(tag: string): number | undefined {
  const m = DURATION.exec(normalizeTag(tag));
  if (!m || (!m[1] && !m[2])) return undefined;
  const minutes = Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0);
  return minutes > 0 ? minutes : undefined;
}

export function isTempoTag(input: string): boolean {
  const t = normalizeTag(input);
  return LABEL.test(t) || tagMinutes(t) !== undefined;
}

/** The zod schema of a tag: normalizes, and fails with code `invalid_tempo_tag` (422). */
export const TempoTagSchema = z
  .string()
  .refine(isTempoTag, {
    // The offending value is named as given (shortened), so the user sees what to fix.
    error: (iss) => `${JSON.stringify(String(iss.input).slice(0, 60))} is not a tempo tag: ${TEMPO_TAG_HINT}`,
    params: { code: 'invalid_tempo_tag' },
  })
  .transform(normalizeTag)
  .describe('tempo tag: @label or a duration block (25m, 90m, 2h, 1h30m)');
