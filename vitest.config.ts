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
    reporters: ['default', './test/helpers/closing-line.ts'],
  },
});
