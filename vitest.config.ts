import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/server/**/*.test.ts', 'test/bin/**/*.test.ts', 'test/e2e/**/*.test.ts', 'test/bench/**/*.test.ts'],
    // Two cores: one fork per core keeps SQLite files, native addons and timing steady.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Scale-out runs (VERITY_TEST_DATABASE_URL): drops the run's scratch databases at the end.
    globalSetup: ['test/helpers/scale-setup.ts'],
  },
});
