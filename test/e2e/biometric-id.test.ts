/**
 * Biometric ID end to end in Debian's Chromium (playwright-core), with the DevTools protocol's
 * virtual platform authenticator as the device: the hosted page at the account's custom domain
 * (here http://localhost:<port>, a secure context as https would be; the relying party is its
 * host) creates a passkey and follows the completion redirect; the method assigned again is
 * proved by an assertion with the same passkey.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeSetting } from '../../server/store/repos/settings-repo.js';
import { CHROMIUM_PATH, chromiumArgs } from '../helpers/chromium.js';
import { addPlatformAuthenticator } from '../helpers/virtual-authenticator.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createTemplate, createUser } from '../server/session/fixtures.js';

const root = resolve(import.meta.dirname, '../..');

let browser: Browser;
let server: TestServer;
let publicUrl: string;

beforeAll(async () => {
  const build = spawnSync(process.execPath, ['scripts/ensure-web-build.mjs'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) throw new Error('building dist/web failed');
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: chromiumArgs() });
}, 400_000);
afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  server = await startTestServer();
  const url = new URL(server.url);
  url.hostname = 'localhost';
  publicUrl = url.origin;
  await writeSetting(server.verity.ctx.db, 'custom_domain', publicUrl);
});
afterEach(async () => {
  await server.close();
});

describe('Biometric ID in Chromium', () => {
  it('hosted page: creates a passkey, redirects on completion; a second visit signs in with it', async () => {
    const template = await createTemplate(server, 'tmpl_passkey', [13]);
    const { id, link } = await createUser(server, {
      email: 'pia@example.com',
      template_id: template,
      reference_id: 'ref-pk',
      completion_url: `${publicUrl}/done-here`,
    });
    expect(new URL(link).origin).toBe(publicUrl);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB' });
    const page = await context.newPage();
    const passkeys = await addPlatformAuthenticator(context, page);
    await page.goto(link);
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('button', { name: 'Create a passkey' }).click();
    await page.waitForURL(/\/done-here\?/, { timeout: 60_000 });
    expect(new URL(page.url()).searchParams.get('reference_id')).toBe('ref-pk');
    expect(await passkeys()).toBe(1);
    const user = (await server.api(`/api/users/${id}`)).body.data as unknown as { verifications: { id: number; status: { value: number } }[] };
    expect(user.verifications).toEqual([expect.objectContaining({ id: 13, status: expect.objectContaining({ value: 2 }) })]);

    // Assigned again: the same passkey proves possession.
    await server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body: { verification_id: 13, status: 'reset' } });
    const again = (await server.api(`/api/users/${id}/verify-url`, { body: { expiration_hours: 1 } })).body.full_url as unknown as string;
    await page.goto(again);
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('button', { name: 'Use my passkey' }).click();
    await page.waitForURL(/\/done-here\?/, { timeout: 60_000 });
    const result = (await server.api(`/api/users/${id}/verifications/13`)).body as unknown as { attributes: Record<string, unknown> };
    expect(result.attributes).toMatchObject({ proof: 'passkey_assertion', user_verified: true, rp_id: 'localhost' });
    await context.close();
  }, 240_000);
});
