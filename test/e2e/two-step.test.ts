/**
 * Two-Step Authentication end to end (issue 21): Debian's Chromium, driven by playwright-core,
 * opens a user's magic link on the hosted page, sets up an authenticator app from the key the page
 * shows (the code computed as an authenticator app would, at the server's time), saves the
 * recovery codes and is redirected to the completion URL; then the same inline in `<verify-flow>`
 * on a customer page, at a phone's size and in Arabic. The customer API then shows the user's
 * `two_factor_options`.
 */
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeSetting } from '../../server/store/repos/settings-repo.js';
import { insertTemplate } from '../../server/store/repos/templates-repo.js';
import { CHROMIUM_PATH, chromiumArgs } from '../helpers/chromium.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createUser, local } from '../server/session/fixtures.js';

const root = resolve(import.meta.dirname, '../..');

function ensureWebBuild(): void {
  const result = spawnSync(process.execPath, ['scripts/ensure-web-build.mjs'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error('building dist/web failed');
}

let browser: Browser;
let server: TestServer;
let site: Server;
let siteUrl: string;
let pageHtml = '';

beforeAll(async () => {
  ensureWebBuild();
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: chromiumArgs() });
}, 240_000);
afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  server = await startTestServer({ queues: ['notify'] });
  site = createServer((req, res) => {
    const done = req.url?.startsWith('/done');
    res.writeHead(200, { 'content-type': 'text/html' }).end(done ? '<!doctype html><title>done</title><h1>Thanks</h1>' : pageHtml);
  });
  await new Promise<void>((ok) => site.listen(0, '127.0.0.1', ok));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  await writeSetting(server.verity.ctx.db, 'allowed_origins', [siteUrl]);
  await writeSetting(server.verity.ctx.db, 'account_name', 'Acme Bank');
  await insertTemplate(server.verity.ctx.db, {
    name: 'tmpl_2fa',
    label: 'Two-step',
    methodIds: [10],
    workflowRawIds: [],
    createdAt: server.clock.now().toISOString(),
  });
});
afterEach(async () => {
  await new Promise((ok) => site.close(ok));
  await server.close();
});

/** Sets up the app on `page` from the key it shows, confirms a code, saves the recovery codes. */
async function setUpAuthenticator(page: Page, labels: { setUp: string; code: string; confirm: string; saved: string }): Promise<string[]> {
  await page.getByRole('button', { name: labels.setUp }).click();
  await page.getByRole('img', { name: /QR/ }).waitFor();
  const key = (await page.locator('verify-step-two-step .secret').textContent())!.replace(/\s/g, '');
  const code = new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 }).generate({ timestamp: server.clock.now().getTime() });
  await page.getByLabel(labels.code).fill(code);
  await page.getByRole('button', { name: labels.confirm }).click();
  // The codes come with the server's answer to the confirmation (allTextContents does not wait).
  await page.locator('verify-step-two-step ol.codes li').first().waitFor();
  const codes = await page.locator('verify-step-two-step ol.codes li').allTextContents();
  await page.getByRole('button', { name: labels.saved }).click();
  return codes;
}

describe('Two-Step Authentication in Chromium', () => {
  it('hosted page: set up an authenticator app → recovery codes → completion redirect; the API shows two_factor_options', async () => {
    const { id, link } = await createUser(server, {
      email: 'e2e-2fa@example.com',
      template_id: 'tmpl_2fa',
      reference_id: 'ref-2fa',
      completion_url: `${siteUrl}/done`,
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(local(server, link));
    await page.getByRole('button', { name: 'Start' }).click();
    const codes = await setUpAuthenticator(page, {
      setUp: 'Set up an authenticator app',
      code: 'Code from the app',
      confirm: 'Confirm',
      saved: 'I have saved them',
    });
    expect(codes).toHaveLength(10);
    await page.waitForURL(/\/done\?/, { timeout: 60_000 });
    expect(new URL(page.url()).searchParams.get('reference_id')).toBe('ref-2fa');
    const user = (await server.api(`/api/users/${id}`)).body.data;
    expect(user.two_factor_options).toMatchObject({ method: 'totp' });
    expect(user.verifications).toEqual([{ id: 10, name: 'Two-Step Authentication', status: { value: 2, friendly: 'Complete' } }]);
    expect(errors.filter((e) => /Content Security Policy|Refused/.test(e))).toEqual([]);
    await context.close();
  }, 180_000);

  it('inline <verify-flow> on a phone, in Arabic: the same set-up completes', async () => {
    const { id, link } = await createUser(server, { email: 'e2e-2fa-ar@example.com', template_id: 'tmpl_2fa', completion_url: `${siteUrl}/done` });
    pageHtml = `<!doctype html><html lang="ar" dir="rtl"><title>متجر</title>
      <verify-flow link="${local(server, link)}" lang="ar"></verify-flow>
      <script src="${server.url}/web/verity.js"></script></html>`;
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'ar', isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(siteUrl);
    await page.locator('verify-flow .intro button').click();
    await setUpAuthenticator(page, { setUp: 'إعداد تطبيق مصادقة', code: 'الرمز من التطبيق', confirm: 'تأكيد', saved: 'لقد حفظتها' });
    await page.waitForURL(/\/done\?/, { timeout: 60_000 });
    expect((await server.api(`/api/users/${id}`)).body.data.two_factor_options).toMatchObject({ method: 'totp' });
    await context.close();
  }, 180_000);
});
