/**
 * Secure Card end to end (issue 22): Debian's Chromium, driven by playwright-core, its fake camera
 * playing a payment card (drawn at test time, a Luhn-valid Visa test number in the user's name),
 * opens the user's magic link on the hosted page, consents, lets the capture checks take the
 * picture, reviews what will be sent and is redirected to the completion URL. Every request body
 * the page sent is searched for the card number, and so is the stored picture (read again by the
 * server's own OCR): only the last four digits ever left the browser.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { getTesseract } from '../../server/analysis/engines.js';
import { hasCardNumber } from '../../src/capture/card-text.js';
import { sdb } from '../../server/session/tables.js';
import { chromiumArgs } from '../helpers/chromium.js';
import { chromiumForFile, hostedServerEachTest } from '../helpers/e2e-setup.js';
import { policyErrors, watchedPage, type CustomerSite } from '../helpers/hosted-e2e.js';
import type { TestServer } from '../helpers/server.js';
import { createUser, local } from '../server/session/fixtures.js';
import { cardSceneSvg, TEST_CARDS } from '../src/fixtures/card-scene.mjs';
// @ts-expect-error -- plain JS fixture shared with the web tests
import { writeY4m } from '../src/fixtures/node/make-fake-cameras.mjs';

const root = resolve(import.meta.dirname, '../..');
const NUMBER = TEST_CARDS.visa;

let browser: Browser;
let server: TestServer;
let site: CustomerSite;

chromiumForFile(
  (b) => (browser = b),
  async () => {
    // The fake camera: a card on a desk, filling most of a 1280×720 frame (made here, never committed).
    const dir = join(root, '.wtr-tmp');
    mkdirSync(dir, { recursive: true });
    const camera = join(dir, 'camera-card.y4m');
    const [width, height] = [1280, 720];
    const rgb = await sharp(Buffer.from(cardSceneSvg({ width, height, card: 0.62, name: 'JANE DOE', expiry: '08/29' })))
      .removeAlpha()
      .raw()
      .toBuffer();
    writeY4m(camera, rgb, width, height);
    return chromiumArgs(camera);
  },
);

hostedServerEachTest((t) => ({ server, site } = t), {
  server: { queues: ['notify'] },
  template: { name: 'tmpl_card', label: 'Card', methodIds: [7] },
});

describe('Secure Card in Chromium', () => {
  it('hosted page: the fake camera card is read and masked on the device → completion redirect; no request and no stored picture holds the number', async () => {
    const { id, link } = await createUser(server, {
      email: 'e2e-card@example.com',
      first_name: 'Jane',
      last_name: 'Doe',
      template_id: 'tmpl_card',
      reference_id: 'ref-card',
      completion_url: `${site.url}/done`,
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    await context.grantPermissions(['camera'], { origin: server.url });
    const { page, errors } = await watchedPage(context);
    // What the page hands to fetch(), read in the page (a multipart body with a picture is not
    // visible to the DevTools protocol): strings as they are, a FormData's files byte for byte.
    const bodies: { url: string; body: Buffer }[] = [];
    await page.exposeFunction('recordSentBody', (url: string, latin1: string) => bodies.push({ url, body: Buffer.from(latin1, 'latin1') }));
    await page.addInitScript(() => {
      const send = window.fetch.bind(window);
      const record = (window as unknown as { recordSentBody: (url: string, body: string) => Promise<void> }).recordSentBody;
      const latin1 = (bytes: Uint8Array): string => {
        let out = '';
        for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
        return out;
      };
      window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
        const body = init?.body;
        let text = typeof body === 'string' ? body : '';
        if (body instanceof FormData) {
          for (const [name, value] of body) text += `${name}=${typeof value === 'string' ? value : latin1(new Uint8Array(await value.arrayBuffer()))}\n`;
        }
        const url = input instanceof Request ? input.url : String(input);
        if (body !== undefined && body !== null) await record(url, text);
        return send(input, init);
      };
    });
    await page.goto(local(server, link));
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('heading', { name: 'Before we use your camera' }).waitFor();
    await page.getByLabel('I agree to the capture and checking of my payment card to verify my identity.').check();
    await page.getByRole('button', { name: 'Agree and continue' }).click();
    await page.getByRole('button', { name: 'Use the camera' }).click();
    // The capture checks take the picture by themselves once the card is framed; then it is read here.
    await page.getByRole('heading', { name: 'Check what will be sent' }).waitFor({ timeout: 60_000 });
    await expect.poll(() => page.locator('verify-step-secure-card dl.reading').textContent()).toContain('Ending in 1111');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/done\?/, { timeout: 60_000 });
    expect(new URL(page.url()).searchParams.get('reference_id')).toBe('ref-card');

    const result = await server.api(`/api/users/${id}/verifications/secure_card`);
    expect(result.body.attributes).toMatchObject({
      last4: '1111',
      brand: 'visa',
      expiry: '08/2029',
      luhn_valid: true,
      name_match: 'matched',
      number_read_on_device: true,
    });
    expect((await server.api(`/api/users/${id}`)).body.data.verifications).toEqual([
      { id: 7, name: 'Secure Card', status: { value: 2, friendly: 'Complete' } },
    ]);

    // Every request body the page sent (JSON and multipart alike, the picture's bytes included).
    expect(bodies.some((b) => b.url.endsWith('/session/methods/secure_card/submit'))).toBe(true);
    for (const { url, body } of bodies) {
      const text = body.toString('latin1');
      expect(text.includes(NUMBER) || text.includes('4111 1111 1111') || text.replace(/\D/g, '').includes(NUMBER.slice(0, 12)), url).toBe(false);
    }
    // The stored picture, read again by the server's OCR: the name is on it, the number is not.
    const upload = await sdb(server.verity.ctx.db).selectFrom('session_uploads').selectAll().where('method_key', '=', 'secure_card').executeTakeFirstOrThrow();
    const stored = await server.verity.ctx.blobs.get(upload.blob_key);
    const ocr = await (await getTesseract('text')).recognize(stored!.bytes);
    expect(ocr.data.text).toMatch(/JANE DOE/);
    expect(hasCardNumber(ocr.data.text)).toBe(false);
    expect(ocr.data.text.replace(/\D/g, '')).not.toContain('1111111111');
    expect(policyErrors(errors)).toEqual([]);
    await context.close();
  }, 180_000);
});
