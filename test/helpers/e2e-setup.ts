/**
 * The set-up the hosted page's end-to-end tests share: Debian's Chromium for the file, and before
 * each test a Verity with a template and the customer's site.
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { insertTemplate } from '../../server/store/repos/templates-repo.js';
import { CHROMIUM_PATH, chromiumArgs } from './chromium.js';
import { ensureWebBuild, startCustomerSite, type CustomerSite } from './hosted-e2e.js';
import { startTestServer, type TestServer, type TestServerOptions } from './server.js';

/**
 * Before the file's tests: the web build and Debian's Chromium, headless, launched with `args`
 * (by default {@link chromiumArgs}: no camera), handed to `use`; closed after them.
 */
export function chromiumForFile(use: (browser: Browser) => void, args: () => string[] | Promise<string[]> = () => chromiumArgs()): void {
  let browser: Browser | undefined;
  beforeAll(async () => {
    ensureWebBuild();
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: await args() });
    use(browser);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
  });
}

/** What each hosted-page test works with. */
export interface HostedTest {
  server: TestServer;
  site: CustomerSite;
}

/**
 * Before each test: a test server (`server` options), the customer's site, and a template of the
 * given methods with no workflows; `prepare` adds what the file needs more (settings). Handed to
 * `use`; both closed after the test. The scale pass (vitest.scale.config.ts) runs files that call
 * it on PostgreSQL too.
 */
export function hostedServerEachTest(
  use: (test: HostedTest) => void,
  options: {
    server: TestServerOptions;
    template: { name: string; label: string; methodIds: number[] };
    prepare?: (test: HostedTest) => Promise<void>;
  },
): void {
  let test: HostedTest | undefined;
  beforeEach(async () => {
    const server = await startTestServer(options.server);
    test = { server, site: await startCustomerSite() };
    await options.prepare?.(test);
    await insertTemplate(server.verity.ctx.db, { ...options.template, workflowRawIds: [], createdAt: server.clock.now().toISOString() });
    use(test);
  });
  afterEach(async () => {
    await test?.site.close();
    await test?.server.close();
    test = undefined;
  });
}
