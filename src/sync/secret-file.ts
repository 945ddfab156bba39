import { readFile } from 'node:fs/promises';
import { FILE_MODE } from '../config/paths.js';
import type { SecretStore } from '../domain/sync/secret-port.js';
import { writeFileDurable } from '../platform/durable-write.js';

type Secrets = Record<string, { username: string; password: string }>;

/**
 * Account passwords in one JSON file of the home folder, mode 0600, replaced whole and durably
 * (a crash keeps the old file or the new one). Changes are queued: two at once never lose one.
 */
export function createSecretFile(path: string): SecretStore {
  let queue: Promise<unknown> = Promise.resolve();
  const read = async (): Promise<Secrets> => {
    try {
      return JSON.parse(await readFile(path, 'utf8')) as Secrets;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new Error(`${path} is not readable JSON; fix or remove it and add the accounts again`);
    }
  };
  const write = async (s: Secrets) => {
    await writeFileDurable(path, JSON.stringify(s, null, 2), { mode: FILE_MODE });
  };
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => {});
    return run;
  };
  return {
    get: (id) => serial(async () => (await read())[id]),
    set: (id, secret) =>
      serial(async () => {
        const s = await read();
        s[id] = { username: secret.username, password: secret.password };
        await write(s);
      }),
    delete: (id) =>
      serial(async () => {
        const s = await read();
        if (!(id in s)) return false;
        delete s[id];
        await write(s);
        return true;
      }),
  };
}
