/**
 * Two-Step Authentication end to end (issue 21): Debian's Chromium, driven by playwright-core,
 * opens a user's magic link on the hosted page, sets up an authenticator app from the key the page
 * shows (the code computed as an authenticator app would, at the server's time), saves the
 * recovery codes and is redirected to the completion URL; then the same inline in `<verify-flow>`
 * on a customer page, at a phone's size and in Arabic. The customer API then shows the user's
 * `two_factor_options`.
 */
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { writeSetting } from '../../server/store/repos/settings-repo.js';
import { setUpAuthenticator } from '../helpers/account-steps.js';
import { chromiumForFile, hostedServerEachTest } from '../helpers/e2e-setup.js';
import { openHosted, policyErrors, type CustomerSite } from '../helpers/hosted-e2e.js';
import type { TestServer } from '../helpers/server.js';
import { createUser, local } from '../server/session/fixtures.js';

let browser: Browser;
let server: TestServer;
let site: CustomerSite;

chromiumForFile((b) => (browser = b));

hostedServerEachTest((t) => ({ server, site } = t), {
  server: { queues: ['notify'] },
  template: { name: 'tmpl_2fa', label: 'Two-step', methodIds: [10] },
  prepare: async ({ server, site }) => {
    await writeSetting(server.verity.ctx.db, 'allowed_origins', [site.url]);
    await writeSetting(server.verity.ctx.db, 'account_name', 'Acme Bank');
  },
});

describe('Two-Step Authentication in Chromium', () => {
  it('hosted page: set up an authenticator app → recovery codes → completion redirect; the API shows two_factor_options', async () => {
    const { id, link } = await createUser(server, {
      email: 'e2e-2fa@example.com',
      template_id: 'tmpl_2fa',
      reference_id: 'ref-2fa',
      completion_url: `${site.url}/done`,
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const { page, errors } = await openHosted(context, local(server, link));
    const codes = await setUpAuthenticator(page, server);
    expect(codes).toHaveLength(10);
    await page.waitForURL(/\/done\?/, { timeout: 60_000 });
    expect(new URL(page.url()).searchParams.get('reference_id')).toBe('ref-2fa');
    const user = (await server.api(`/api/users/${id}`)).body.data;
    expect(user.two_factor_options).toMatchObject({ method: 'totp' });
    expect(user.verifications).toEqual([{ id: 10, name: 'Two-Step Authentication', status: { value: 2, friendly: 'Complete' } }]);
    expect(policyErrors(errors)).toEqual([]);
    await context.close();
  }, 180_000);

  it('inline <verify-flow> on a phone, in Arabic: the same set-up completes', async () => {
    const { id, link } = await createUser(server, { email: 'e2e-2fa-ar@example.com', template_id: 'tmpl_2fa', completion_url: `${site.url}/done` });
    site.html = `<!doctype html><html lang="ar" dir="rtl"><title>متجر</title>
      <verify-flow link="${local(server, link)}" lang="ar"></verify-flow>
      <script src="${server.url}/web/verity.js"></script></html>`;
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'ar', isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(site.url);
    await page.locator('verify-flow .intro button').click();
    await setUpAuthenticator(page, server, { setUp: 'إعداد تطبيق مصادقة', code: 'الرمز من التطبيق', confirm: 'تأكيد', saved: 'لقد حفظتها' });
    await page.waitForURL(/\/done\?/, { timeout: 60_000 });
    expect((await server.api(`/api/users/${id}`)).body.data.two_factor_options).toMatchObject({ method: 'totp' });
    await context.close();
  }, 180_000);
});
