import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The built-in embedding model is prepared once for all files (minutes on a fresh machine).
    globalSetup: ['./test/helpers/prepare-model.ts'],
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // API and CLI tests spawn daemons; two cores on CI.
    maxWorkers: 2,
    reporters: ['default', './test/helpers/closing-line.ts'],
  },
});
