import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // API and CLI tests spawn daemons; two cores on CI.
    maxWorkers: 2,
    reporters: ['default', './test/helpers/closing-line.ts'],
  },
});
