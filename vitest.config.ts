import { defineConfig } from 'vitest/config';

// Tiers: the unit tier imports src/ only (no dist/, no daemon, no built-in model); the other tiers
// spawn `bin/kairos.js` or compiled children, which run dist/, or load the whole built-in model.
// A project's global setup runs only when that project has files in the run, so
// `vitest run --project unit` never builds.
// docs/architecture.md ("Tests") has the table of tiers and when to run each.
const BUILD_FIRST = {
  // First dist/ is rebuilt when src/ is newer; then the built-in embedding model is loaded once.
  globalSetup: ['./test/helpers/fresh-build.ts', './test/helpers/prepare-model.ts'],
};

export default defineConfig({
  test: {
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // API and CLI tests spawn daemons; two cores on CI.
    maxWorkers: 2,
    // OAuth runs inside the test process too (its module reads this variable, as the CLI does):
    // the tests' servers on loopback are let through the outbound address policy, as cleanEnv() does.
    env: { KAIROS_OUTBOUND_ALLOW: '127.0.0.1,localhost,::1' },
    reporters: ['default', './test/helpers/closing-line.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/architecture/**/*.test.ts'] } },
      { extends: true, test: { name: 'built', include: ['test/built/**/*.test.ts', 'test/fault/**/*.test.ts'], ...BUILD_FIRST } },
      { extends: true, test: { name: 'api', include: ['test/api/**/*.test.ts', 'test/conformance/**/*.test.ts'], ...BUILD_FIRST } },
      { extends: true, test: { name: 'cli', include: ['test/cli/**/*.test.ts'], ...BUILD_FIRST } },
      // The page (web/): its logic, its built size, and the page in Debian's Chromium on a real daemon.
      { extends: true, test: { name: 'web', include: ['test/web/**/*.test.ts'], ...BUILD_FIRST } },
    ],
  },
});
