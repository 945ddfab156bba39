import { AppError } from '../../errors.js';

/** 422 naming the cap a user has reached and the config key that sets it; nothing was created. */
export function capReached(what: string, key: string, limit: number): AppError {
  return new AppError(422, 'limit_exceeded', `You have ${limit} ${what} already, the most a user may have (${key} in config.json). Remove one first.`, {
    details: [{ path: key, message: `at most ${limit} ${what} per user` }],
  });
}
