/** Where account passwords are kept: a file of the home folder, mode 0600 (src/sync/secret-file.ts). Never in db.json. */
export interface SecretStore {
  get(accountId: string): Promise<{ username: string; password: string } | undefined>;
  set(accountId: string, secret: { username: string; password: string }): Promise<void>;
  /** True when there was one. */
  delete(accountId: string): Promise<boolean>;
}
