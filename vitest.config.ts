import { defineConfig } from 'vitest/config';

/**
 * Files that need a module graph of their own: some mock modules (`vi.mock`), one empties the graph
 * (`vi.resetModules`) to import each method first; shared with the files around them, a mock
 * would leak (and not apply to a module already loaded) and the reset would load the server's
 * modules again.
 */
const ISOLATED_FILES = [
  'test/server/adapters.test.ts',
  'test/server/methods/module-graph.test.ts',
  'test/server/analysis/stages/portrait-models.test.ts',
  'test/server/analysis/stages/mrz-deblur-order.test.ts',
];

export default defineConfig({
  test: {
    // Three forks on two cores: the test files mostly wait (browsers, timers, sockets): with two
    // forks the embedded pass used 0.93 of the 2 cores on average (CPU 692 s in 743 s); a third
    // fork fills that wait (scale pass 349 -> 213 s on a fresh clone, docs/performance.md).
    pool: 'forks',
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Drops the scratch PostgreSQL databases of the run at the end (scale switch, test/server/scale).
    globalSetup: ['test/helpers/scale-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['test/server/**/*.test.ts', 'test/bin/**/*.test.ts', 'test/e2e/**/*.test.ts', 'test/bench/**/*.test.ts', 'test/scripts/**/*.test.ts'],
          exclude: ISOLATED_FILES,
          // Each fork runs file after file in one module graph: every file builds its own servers
          // and databases, and loading the server's modules anew for each of 80 files took about
          // a third of the pass.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED_FILES } },
    ],
  },
});
