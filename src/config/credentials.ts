import { readFile } from 'node:fs/promises';

/** credentials.json: the owner key the daemon mints on first start (src/daemon/credentials.ts) and the CLI uses. */
export interface Credentials {
  api_key: string;
  user_id: string;
  key_id: string;
}

export async function readCredentials(path: string): Promise<Credentials | undefined> {
  try {
    const c = JSON.parse(await readFile(path, 'utf8')) as Credentials;
    return typeof c.api_key === 'string' ? c : undefined;
  } catch {
    return undefined;
  }
}
