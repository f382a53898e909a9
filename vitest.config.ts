import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/server/**/*.test.ts', 'test/bin/**/*.test.ts', 'test/e2e/**/*.test.ts', 'test/bench/**/*.test.ts'],
    // Two cores: one fork per core keeps SQLite files, native addons and timing steady.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Drops the scratch PostgreSQL databases of the run at the end (scale switch, test/server/scale).
    globalSetup: ['test/helpers/scale-setup.ts'],
  },
});
