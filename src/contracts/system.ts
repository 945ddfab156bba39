import { z } from 'zod';

export const Health = z.object({ status: z.literal('ok') });
export const VersionInfo = z.object({
  api_version: z.string(),
  version: z.string(),
  build: z.object({ node: z.string(), commit: z.string().optional(), started_at: z.string() }),
});
export const API_VERSION = '1';
