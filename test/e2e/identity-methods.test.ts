/**
 * Issue 21's end-to-end run, in Debian's Chromium driven by playwright-core: one template holding
 * Two-Step Authentication, Biometric ID, Social Account and Payment Account (with a payment
 * provider), through the hosted page to the completion redirect, then the same inline in
 * `<verify-flow>` on a customer's page at a phone's size. The sign-ins go to a real OpenID Connect
 * provider (`oidc-provider`) on loopback, in the window the step opens, through Verity's
 * /oidc/begin and /oidc/callback (on the public URL, http://verity.test). The passkey is made by
 * the DevTools protocol's virtual platform authenticator; its relying party is the account's
 * custom domain, http://localhost:<port> here (a secure context, as https would be), and the inline
 * run's customer page is another localhost port, an embedding origin the server accepts.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeSetting } from '../../server/store/repos/settings-repo.js';
import { insertTemplate } from '../../server/store/repos/templates-repo.js';
import { confirmPaymentAccount, setUpAuthenticator, signInAtProvider } from '../helpers/account-steps.js';
import { CHROMIUM_PATH, chromiumArgs } from '../helpers/chromium.js';
import { ensureWebBuild, policyErrors, startCustomerSite, watchedPage, type CustomerSite } from '../helpers/hosted-e2e.js';
import { addPlatformAuthenticator } from '../helpers/virtual-authenticator.js';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { configureProvider } from '../server/methods/oidc/fixtures.js';
import { createUser } from '../server/session/fixtures.js';

/** Screenshots of the steps on a desktop and a phone, for people to look at. */
const SHOTS = process.env.VERITY_E2E_SHOTS;

let browser: Browser;
let idp: TestOidcProvider;
let server: TestServer;
let site: CustomerSite;
let hostedUrl: string;

beforeAll(async () => {
  ensureWebBuild();
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: chromiumArgs() });
  idp = await startOidcProvider('http://verity.test/oidc/callback');
  idp.accounts.set('alice', { email: 'alice@example.com', email_verified: true });
  idp.accounts.set('payer', { email: 'pay@shop.example', email_verified: true });
}, 400_000);
afterAll(async () => {
  await browser?.close();
  await idp?.close();
});

beforeEach(async () => {
  server = await startTestServer({ queues: ['notify'] });
  site = await startCustomerSite('localhost');
  const db = server.verity.ctx.db;
  await writeSetting(db, 'allowed_origins', [site.url]);
  // The hosted page's host is the passkey's relying party: a custom domain on localhost.
  hostedUrl = `http://localhost:${new URL(server.url).port}`;
  await writeSetting(db, 'custom_domain', hostedUrl);
  await writeSetting(db, 'account_name', 'Acme Bank');
  await insertTemplate(db, {
    name: 'tmpl_accounts',
    label: 'Accounts',
    methodIds: [10, 13, 9, 4],
    workflowRawIds: [],
    createdAt: server.clock.now().toISOString(),
  });
  await configureProvider(server, idp, 'social', 'TestID');
  await configureProvider(server, idp, 'payment', 'PayProvider');
});
afterEach(async () => {
  await site.close();
  await server.close();
});

/**
 * A browser context in which Verity's public base URL (http://verity.test, where the provider
 * sends the user back) reaches the test server, as DNS would in production.
 */
async function contextFor(options: Parameters<Browser['newContext']>[0]): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  const base = server.config.baseUrl;
  // Fetched here and answered as verity.test's own response, so its cookies (the sign-in's binding)
  // belong to verity.test in the browser, as they would behind real DNS.
  await context.route(`${base}/**`, async (route) => {
    const response = await route.fetch({ url: server.url + route.request().url().slice(base.length), maxRedirects: 0 });
    await route.fulfill({ response });
  });
  return context;
}

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** The Payment Account step, its screens photographed as `name`-…. */
async function payment(page: Page, name: string): Promise<void> {
  await confirmPaymentAccount(page, server, { email: 'pay@shop.example', account: 'payer', shot: (screen) => shot(page, `${name}-${screen}`) });
}

async function statuses(id: number): Promise<unknown> {
  return (await server.api(`/api/users/${id}`)).body.data;
}

describe('Two-Step, Biometric ID, Social Account and Payment Account in Chromium', () => {
  it('hosted page: all four to the completion redirect, each proven', async () => {
    const { id, link } = await createUser(server, {
      email: 'alice@example.com',
      template_id: 'tmpl_accounts',
      reference_id: 'ref-accounts',
      completion_url: `${site.url}/done`,
    });
    const context = await contextFor({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const { page, errors } = await watchedPage(context);
    const passkeys = await addPlatformAuthenticator(context, page);
    expect(new URL(link).origin).toBe(hostedUrl);
    await page.goto(link);
    await page.getByRole('button', { name: 'Start' }).click();
    await setUpAuthenticator(page, server);
    await page.getByRole('button', { name: 'Create a passkey' }).click();
    await page.getByRole('button', { name: 'Continue with TestID' }).waitFor();
    expect(await passkeys()).toBe(1);
    await shot(page, 'desktop-social');
    await signInAtProvider(page, 'Continue with TestID', 'alice', () => shot(page, 'desktop-social-waiting'));
    await page.getByLabel('Payment account e-mail').waitFor();
    await shot(page, 'desktop-payment');
    await payment(page, 'desktop-payment');
    await page.waitForURL(/\/done\?/, { timeout: 60_000 });
    expect(new URL(page.url()).searchParams.get('reference_id')).toBe('ref-accounts');
    expect(await statuses(id)).toMatchObject({
      verifications: [
        { id: 10, status: { value: 2 } },
        { id: 13, status: { value: 2 } },
        { id: 9, status: { value: 2 } },
        { id: 4, status: { value: 2 } },
      ],
    });
    expect(policyErrors(errors)).toEqual([]);
    await context.close();
  }, 240_000);

  it('inline <verify-flow> on a customer page, on a phone: the same four complete', async () => {
    const { id, link } = await createUser(server, { email: 'alice@example.com', template_id: 'tmpl_accounts', completion_url: `${site.url}/done` });
    site.html = `<!doctype html><html lang="en"><title>Shop</title><meta name="viewport" content="width=device-width, initial-scale=1">
      <verify-flow link="${link}" lang="en"></verify-flow>
      <script src="${server.url}/web/verity.js"></script></html>`;
    const context = await contextFor({ viewport: { width: 390, height: 844 }, locale: 'en-GB', isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const passkeys = await addPlatformAuthenticator(context, page);
    await page.goto(site.url);
    await page.locator('verify-flow .intro button').click();
    await setUpAuthenticator(page, server);
    // The ceremony runs in the customer's page: its origin is one the account embeds the flow on.
    await page.getByRole('button', { name: 'Create a passkey' }).click();
    await page.getByRole('button', { name: 'Continue with TestID' }).waitFor();
    expect(await passkeys()).toBe(1);
    await page.getByRole('button', { name: 'Continue with TestID' }).waitFor();
    await shot(page, 'phone-social');
    await signInAtProvider(page, 'Continue with TestID', 'alice', () => shot(page, 'phone-social-waiting'));
    await page.getByLabel('Payment account e-mail').waitFor();
    await payment(page, 'phone-payment');
    await page.waitForURL(/\/done\?/, { timeout: 60_000 });
    expect(await statuses(id)).toMatchObject({
      verifications: [
        { id: 10, status: { value: 2 } },
        { id: 13, status: { value: 2 } },
        { id: 9, status: { value: 2 } },
        { id: 4, status: { value: 2 } },
      ],
    });
    await context.close();
  }, 240_000);
});
