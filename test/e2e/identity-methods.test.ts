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
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeSetting } from '../../server/store/repos/settings-repo.js';
import { insertTemplate } from '../../server/store/repos/templates-repo.js';
import { CHROMIUM_PATH, chromiumArgs } from '../helpers/chromium.js';
import { addPlatformAuthenticator } from '../helpers/virtual-authenticator.js';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { configureProvider } from '../server/methods/oidc/fixtures.js';
import { createUser, latestCode } from '../server/session/fixtures.js';

const root = resolve(import.meta.dirname, '../..');
/** Screenshots of the steps on a desktop and a phone, for people to look at. */
const SHOTS = process.env.VERITY_E2E_SHOTS;

let browser: Browser;
let idp: TestOidcProvider;
let server: TestServer;
let site: Server;
let siteUrl: string;
let pageHtml = '';
let hostedUrl: string;

beforeAll(async () => {
  const build = spawnSync(process.execPath, ['scripts/ensure-web-build.mjs'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) throw new Error('building dist/web failed');
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
  site = createServer((req, res) => {
    const done = req.url?.startsWith('/done');
    res.writeHead(200, { 'content-type': 'text/html' }).end(done ? '<!doctype html><title>done</title><h1>Thanks</h1>' : pageHtml);
  });
  await new Promise<void>((ok) => site.listen(0, '127.0.0.1', ok));
  siteUrl = `http://localhost:${(site.address() as AddressInfo).port}`;
  const db = server.verity.ctx.db;
  await writeSetting(db, 'allowed_origins', [siteUrl]);
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
  await new Promise((ok) => site.close(ok));
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

async function twoStep(page: Page, labels: { setUp: string; code: string; confirm: string; saved: string }): Promise<void> {
  await page.getByRole('button', { name: labels.setUp }).click();
  const key = (await page.locator('verify-step-two-step .secret').textContent())!.replace(/\s/g, '');
  const code = new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 }).generate({ timestamp: server.clock.now().getTime() });
  await page.getByLabel(labels.code).fill(code);
  await page.getByRole('button', { name: labels.confirm }).click();
  await page.getByRole('button', { name: labels.saved }).click();
}

/** Presses the step's sign-in button, signs in as `account` in the window it opens (the provider's own pages). */
async function signIn(page: Page, button: string, account: string, name: string): Promise<void> {
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: button }).click()]);
  await popup.locator('input[name="login"]').waitFor({ timeout: 30_000 });
  await shot(page, `${name}-waiting`);
  await popup.locator('input[name="login"]').fill(account);
  await popup.locator('input[name="password"]').fill('any');
  await popup.locator('button[type="submit"]').click();
  // Consent, then the provider sends the window to Verity's callback, whose page closes it.
  await popup.locator('button[autofocus]').click();
  await popup.waitForEvent('close', { timeout: 30_000 });
}

async function payment(page: Page, labels: { email: string; send: string; code: string; confirm: string; signIn: string }, name: string): Promise<void> {
  await page.getByLabel(labels.email).fill('pay@shop.example');
  await page.getByRole('button', { name: labels.send }).click();
  await page.getByLabel(labels.code).fill(await latestCode(server, 'pay@shop.example'));
  await shot(page, `${name}-code`);
  await page.getByRole('button', { name: labels.confirm }).click();
  await page.getByRole('button', { name: labels.signIn }).waitFor();
  await shot(page, `${name}-sign-in`);
  await signIn(page, labels.signIn, 'payer', name);
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
      completion_url: `${siteUrl}/done`,
    });
    const context = await contextFor({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    const passkeys = await addPlatformAuthenticator(context, page);
    expect(new URL(link).origin).toBe(hostedUrl);
    await page.goto(link);
    await page.getByRole('button', { name: 'Start' }).click();
    await twoStep(page, { setUp: 'Set up an authenticator app', code: 'Code from the app', confirm: 'Confirm', saved: 'I have saved them' });
    await page.getByRole('button', { name: 'Create a passkey' }).click();
    await page.getByRole('button', { name: 'Continue with TestID' }).waitFor();
    expect(await passkeys()).toBe(1);
    await shot(page, 'desktop-social');
    await signIn(page, 'Continue with TestID', 'alice', 'desktop-social');
    await page.getByLabel('Payment account e-mail').waitFor();
    await shot(page, 'desktop-payment');
    await payment(
      page,
      { email: 'Payment account e-mail', send: 'Send code', code: 'Code', confirm: 'Confirm', signIn: 'Continue with PayProvider' },
      'desktop-payment',
    );
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
    expect(errors.filter((e) => /Content Security Policy|Refused/.test(e))).toEqual([]);
    await context.close();
  }, 240_000);

  it('inline <verify-flow> on a customer page, on a phone: the same four complete', async () => {
    const { id, link } = await createUser(server, { email: 'alice@example.com', template_id: 'tmpl_accounts', completion_url: `${siteUrl}/done` });
    pageHtml = `<!doctype html><html lang="en"><title>Shop</title><meta name="viewport" content="width=device-width, initial-scale=1">
      <verify-flow link="${link}" lang="en"></verify-flow>
      <script src="${server.url}/web/verity.js"></script></html>`;
    const context = await contextFor({ viewport: { width: 390, height: 844 }, locale: 'en-GB', isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const passkeys = await addPlatformAuthenticator(context, page);
    await page.goto(siteUrl);
    await page.locator('verify-flow .intro button').click();
    await twoStep(page, { setUp: 'Set up an authenticator app', code: 'Code from the app', confirm: 'Confirm', saved: 'I have saved them' });
    // The ceremony runs in the customer's page: its origin is one the account embeds the flow on.
    await page.getByRole('button', { name: 'Create a passkey' }).click();
    await page.getByRole('button', { name: 'Continue with TestID' }).waitFor();
    expect(await passkeys()).toBe(1);
    await page.getByRole('button', { name: 'Continue with TestID' }).waitFor();
    await shot(page, 'phone-social');
    await signIn(page, 'Continue with TestID', 'alice', 'phone-social');
    await page.getByLabel('Payment account e-mail').waitFor();
    await payment(
      page,
      { email: 'Payment account e-mail', send: 'Send code', code: 'Code', confirm: 'Confirm', signIn: 'Continue with PayProvider' },
      'phone-payment',
    );
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
