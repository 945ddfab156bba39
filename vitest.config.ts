import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // First dist/ is rebuilt when src/ is newer (spawned daemons run dist/); then the built-in
    // embedding model is loaded once for all files.
    globalSetup: ['./test/helpers/fresh-build.ts', './test/helpers/prepare-model.ts'],
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // API and CLI tests spawn daemons; two cores on CI.
    maxWorkers: 2,
    // OAuth runs inside the test process too (its module reads this variable, as the CLI does):
    // the tests' servers on loopback are let through the outbound address policy, as cleanEnv() does.
    env: { KAIROS_OUTBOUND_ALLOW: '127.0.0.1,localhost,::1' },
    reporters: ['default', './test/helpers/closing-line.ts'],
  },
});
