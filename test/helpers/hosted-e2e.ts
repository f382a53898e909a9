/**
 * What the end-to-end tests of the hosted page share: the web build they load, the customer's
 * site the completion redirect lands on (and that can embed `<verify-flow>`), a page opened on a
 * magic link with its console errors kept, and a method's stored row once the workers are idle.
 */
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestServer } from './server.js';

const root = resolve(import.meta.dirname, '../..');

/** Builds dist/web (widget, hosted page, dashboard, face model) unless it is already up to date. */
export function ensureWebBuild(): void {
  const result = spawnSync(process.execPath, ['scripts/ensure-web-build.mjs'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error('building dist/web failed');
}

/** The customer's site: `/done…` thanks the user; any other path serves {@link CustomerSite.html}. */
export interface CustomerSite {
  url: string;
  /** The page served at every other path (a page embedding `<verify-flow>`, say). */
  html: string;
  close(): Promise<void>;
}

/** Starts the customer's site on a loopback port; `host` is the name its URL uses (`localhost` for a secure context). */
export async function startCustomerSite(host = '127.0.0.1'): Promise<CustomerSite> {
  const server = createServer((req, res) => {
    const done = req.url?.startsWith('/done');
    res.writeHead(200, { 'content-type': 'text/html' }).end(done ? '<!doctype html><title>done</title><h1>Thanks</h1>' : site.html);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const site: CustomerSite = {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    html: '',
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
  return site;
}

/** A page in `context` whose console errors are kept in `errors`. */
export async function watchedPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return { page, errors };
}

/** Opens `url` (a magic link) in a watched page and presses the landing page's Start. */
export async function openHosted(context: BrowserContext, url: string, start = 'Start'): Promise<{ page: Page; errors: string[] }> {
  const watched = await watchedPage(context);
  await watched.page.goto(url);
  await watched.page.getByRole('button', { name: start }).click();
  return watched;
}

/**
 * A phone-sized context allowed the camera on `origin`, `url` (a magic link) opened and started,
 * and the camera consent given: the page is on the first camera step.
 */
export async function consentedCameraFlowOnPhone(
  browser: Browser,
  origin: string,
  url: string,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB', isMobile: true, hasTouch: true });
  await context.grantPermissions(['camera'], { origin });
  const { page, errors } = await openHosted(context, url);
  await page.getByRole('heading', { name: 'Before we use your camera' }).waitFor();
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Agree and continue' }).click();
  return { context, page, errors };
}

/** The errors that are the page's security policies refusing something (CSP, Permissions-Policy). */
export function policyErrors(errors: readonly string[]): string[] {
  return errors.filter((e) => /Content Security Policy|Refused|Permissions policy/.test(e));
}

/** A method's stored row for a user, once the server's workers have nothing left to do. */
export async function methodRow(server: TestServer, userId: number, methodId: number) {
  await server.verity.ctx.queue.whenIdle();
  const row = await server.verity.ctx.db
    .selectFrom('user_verifications')
    .selectAll()
    .where('user_id', '=', userId)
    .where('method_id', '=', methodId)
    .executeTakeFirstOrThrow();
  return { status: row.status, remarks: row.remarks, attributes: JSON.parse(row.attributes) as Record<string, unknown> };
}
