import { stat } from 'node:fs/promises';
import { AppError } from '../errors.js';

const untrusted = (message: string) => new AppError(403, 'home_untrusted', message);

/**
 * The CLI takes the owner's key and the daemon's address from its home, so it uses only a home no
 * one else can write: one the current user owns, with no permission for group or others (0700).
 * Whoever could write it could otherwise point the next command, and its key, at a server of
 * theirs. A home that does not exist yet is fine: it is created with mode 0700.
 */
export async function assertOwnHome(home: string): Promise<void> {
  const uid = process.getuid?.();
  // No POSIX owner or mode to check (Windows).
  if (uid === undefined) return;
  let st: Awaited<ReturnType<typeof stat>>;
  try {
    st = await stat(home);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  if (st.uid !== uid)
    throw untrusted(
      `${home} belongs to another user (uid ${st.uid}), so kairos does not read your key or the daemon's address from it. Use a home of your own (KAIROS_HOME), or have ${home} given to you (chown).`,
    );
  const mode = st.mode & 0o777;
  if (mode & 0o077)
    throw untrusted(
      `${home} can be changed or read by other users (mode ${mode.toString(8).padStart(4, '0')}), so kairos does not read your key or the daemon's address from it. Fix: chmod 700 ${home}`,
    );
}
