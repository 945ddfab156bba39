import { afterEach } from 'vitest';
import { type HomePaths, homePaths } from '../../src/config/paths.js';
import { removeHome, tempHome } from './daemon.js';

/** A function that gives a fresh home's paths at each call; the homes are removed after each test of the calling file. */
export function homesRemovedAfterEach(): () => HomePaths {
  const homes: string[] = [];
  afterEach(() => {
    for (const h of homes.splice(0)) removeHome(h);
  });
  return () => {
    const h = tempHome();
    homes.push(h);
    return homePaths(h);
  };
}
