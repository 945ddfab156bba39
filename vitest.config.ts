import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // API and CLI tests spawn daemons; two cores on CI.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
