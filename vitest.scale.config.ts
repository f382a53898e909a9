import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The browser end-to-end files that run on PostgreSQL + Redis too: the HTTP journey and one whole
 * widget journey. The other browser files (one per method, minutes each in Chromium) drive the
 * same routes the server tests already run on both stores: repeating them here only doubled the
 * slowest part of `npm test`.
 */
const E2E_ON_BOTH_STORES = new Set(['test/e2e/journey-http.test.ts', 'test/e2e/widget-journey.test.ts']);

/**
 * The scale pass (`npm run test:server:scale`): the server suite again, on PostgreSQL + Redis.
 * The switch (VERITY_TEST_DATABASE_URL / VERITY_TEST_REDIS_URL) changes only what
 * `startTestServer` builds, so only the test files that start one run again. The rest would do
 * exactly what they did in the first pass: the analysis stages and domain rules touch no store,
 * tests that spawn the binary give it their own environment, and the tests that name their own
 * database (`VERITY_DATABASE_URL:`, under test/server/scale) are on PostgreSQL in both passes.
 */
function filesStartingTestServers(): string[] {
  const roots = ['test/server', 'test/e2e'];
  return (
    roots
      .flatMap((root) => readdirSync(root, { recursive: true, encoding: 'utf8' }).map((f) => join(root, f)))
      // startLimiterSharingServers (test/helpers/shared-limiters.ts) starts two through startTestServer.
      .filter(
        (file) =>
          file.endsWith('.test.ts') && /\b(startTestServer|startLimiterSharingServers|adminTestServer|hostedServerEachTest)\(/.test(readFileSync(file, 'utf8')),
      )
      .filter((file) => !/\bVERITY_DATABASE_URL:/.test(readFileSync(file, 'utf8')))
      .filter((file) => !file.startsWith('test/e2e/') || E2E_ON_BOTH_STORES.has(file))
      .sort()
  );
}

// The base config's projects (one for files that need a module graph of their own) do not apply: none of those starts a test server.
const { projects: _projects, ...baseTest } = base.test ?? {};

export default defineConfig({
  ...base,
  test: {
    ...baseTest,
    // Replaces the base `include` (mergeConfig would append to it).
    include: filesStartingTestServers(),
    // One fork per core runs file after file without a fresh module graph for each: every file
    // starts test servers of its own (own database, own Redis prefix), and loading the server's
    // modules anew for each of 40 files cost more than the tests themselves (import 339 s of
    // 607 s, against 27 s of 290 s without, one run each on the loaded 2-core machine).
    isolate: false,
  },
});
