/**
 * End to end through the dashboard (issue 23): a user whose document the analysis flagged as
 * edited waits in the review queue; a reviewer opens the case in Debian's Chromium (driven by
 * playwright-core), sees the field that disagrees with the record, approves with a reason, and
 * the customer's webhook receiver, a real HTTP server on loopback, gets `verification.completed`
 * carrying that reason and the method's result. Screenshots of the case, desktop and phone, go to
 * /tmp/shots-console/ for a person to look at, as do the queue, the case and the overview on
 * a desktop and a phone in both colour schemes.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerity, type Verity } from '../../server/app.js';
import { hashPassword } from '../../server/auth/passwords.js';
import { loadConfig } from '../../server/config.js';
import { VerificationStatus } from '../../server/domain/catalogue.js';
import { markDocumentProcessing, moveDocument } from '../../server/services/document-jobs.js';
import { createUser } from '../../server/services/users.js';
import { createEndpoint } from '../../server/webhooks/endpoints.js';
import { CHROMIUM_PATH, chromiumArgs } from '../helpers/chromium.js';
import { insertAnalysedDocumentJob } from '../helpers/document-jobs.js';
import { startReceiver, type Receiver } from '../server/webhooks/receiver.js';

const root = resolve(import.meta.dirname, '../..');
const ADMIN = { email: 'reviewer@example.com', password: 'a very long reviewer passphrase' };
const SHOTS = '/tmp/shots-console';
const REASON = 'Edited only where the holder signed: the document is genuine.';

let verity: Verity;
let browser: Browser;
let base: string;
let dataDir: string;
let hooks: Receiver;
let userId: number;

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createNetServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => ok(port));
    });
  });
}

/** A document image with a face-coloured portrait area, and the analysis's verdict on it. */
async function flaggedUser(): Promise<number> {
  const { ctx } = verity;
  const { user } = await createUser(ctx, {
    email: 'ada@example.test',
    first_name: 'Ada',
    last_name: 'Lovelace',
    template_id: 'tmpl_document',
    reference_id: 'cust-42',
    // Well formed, but its initial (B) is not Lovelace's: the case shows the DEA checks too.
    deaNumber: 'AB1234563',
  });
  const docId = `doc_${user.id}`;
  const content = {
    photoshopped: true,
    mrz_data: [{ valid: true }],
    ai_analysis: { name_match: { full_name: false }, internet_detection: false },
    document_processor: {
      'Full Name': { value: 'JOHN Q PUBLIC', confidence: 91 },
      'Date of Birth': { value: '1990-04-01', confidence: 95 },
      'Document Number': { value: 'D1234567', confidence: 97 },
      'Portrait Position': { value: { x1: 40, y1: 60, x2: 200, y2: 260 }, confidence: 88 },
    },
  };
  const { blobKey } = await insertAnalysedDocumentJob(ctx.db, { userId: user.id, docId, content, size: 1, now: ctx.clock.now() });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="856" height="540"><rect width="856" height="540" rx="24" fill="#dbe7f3"/><rect x="40" y="60" width="160" height="200" fill="#c8a07e"/><text x="260" y="120" font-size="36" font-family="sans-serif">JOHN Q PUBLIC</text><text x="260" y="180" font-size="28" font-family="sans-serif">DOB 1990-04-01</text><text x="260" y="240" font-size="28" font-family="sans-serif">No D1234567</text></svg>`;
  await ctx.blobs.put(blobKey, await sharp(Buffer.from(svg)).jpeg().toBuffer(), 'image/jpeg');
  await ctx.db.transaction().execute(async (trx) => {
    await markDocumentProcessing(trx, ctx.clock, user.id);
    await moveDocument(trx, ctx.clock, user.id, VerificationStatus.complete_in_review, {
      remarks: null,
      attributes: { verify_documents: [{ doc_id: docId, side: 'front', document_status: 'Success', reason: null, flags: ['photoshopped'] }] },
    });
  });
  return user.id;
}

beforeAll(async () => {
  const built = spawnSync('npx', ['vite', 'build', '--mode', 'dashboard'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) throw new Error('dashboard build failed');
  dataDir = await mkdtemp(join(tmpdir(), 'verity-e2e-review-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    VERITY_DATA_DIR: dataDir,
    PORT: String(port),
    VERITY_BASE_URL: base,
    VERITY_SECRET: 'e2e-secret-'.padEnd(48, 'r'),
    VERITY_ALLOW_PRIVATE_WEBHOOKS: 'true',
    VERITY_LOG_LEVEL: 'silent',
  });
  verity = await buildVerity({ config, logger: false, analysis: false });
  await verity.app.listen({ port, host: '127.0.0.1' });
  await verity.startWorkers();
  await verity.ctx.db
    .insertInto('admins')
    .values({ email: ADMIN.email, password_hash: await hashPassword(ADMIN.password), created_at: new Date().toISOString() })
    .execute();
  hooks = await startReceiver();
  await createEndpoint(verity.ctx.db, { url: hooks.url, events: ['verification.completed'] }, new Date(), config.secret);
  userId = await flaggedUser();
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: chromiumArgs() });
  await mkdir(SHOTS, { recursive: true });
}, 600_000); // The dashboard build alone takes minutes on a loaded machine.

afterAll(async () => {
  await browser?.close();
  await hooks?.close();
  await verity?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function signIn(page: Page): Promise<void> {
  await page.goto(`${base}/admin`);
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}

describe('review case end to end', () => {
  it('the queue, the case and the overview on a desktop and a phone, light and dark: no CSP violation, charts drawn, nothing wider than the phone', async () => {
    const views = [
      { name: 'overview', path: '/admin', ready: async (p: Page) => p.locator('admin-chart .ct-bar').first().waitFor({ state: 'attached', timeout: 20_000 }) },
      { name: 'reviews', path: '/admin/reviews', ready: async (p: Page) => p.getByRole('link', { name: 'Ada Lovelace' }).waitFor() },
      { name: 'case', path: `/admin/users/${userId}`, ready: async (p: Page) => p.getByText('1 field disagrees with the user').waitFor() },
    ];
    for (const scheme of ['light', 'dark'] as const) {
      for (const device of [
        { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false },
        { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
      ]) {
        const context = await browser.newContext({ viewport: device.viewport, isMobile: device.isMobile, colorScheme: scheme, locale: 'en-GB' });
        const page = await context.newPage();
        const refused: string[] = [];
        page.on('console', (m) => {
          if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
        });
        page.on('pageerror', (e) => refused.push(e.message));
        // The page's own reports of what its CSP refused (injected by the browser driver, which the CSP does not govern).
        await page.addInitScript(() => {
          const seen: string[] = [];
          (window as unknown as { cspViolations: string[] }).cspViolations = seen;
          document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective}: ${e.sample || e.blockedURI}`));
        });
        await signIn(page);
        for (const view of views) {
          const where = `${view.name}, ${device.name}, ${scheme}`;
          await page.goto(`${base}${view.path}`);
          await view.ready(page);
          if (view.name === 'overview') {
            // Chartist sizes its labels with style attributes: what style-src-attr allows and a stricter CSP would refuse.
            await page.locator('admin-chart .ct-label').first().waitFor({ state: 'attached' });
            expect(await page.locator('admin-chart [style]').count(), where).toBeGreaterThan(0);
          }
          await page.waitForTimeout(400);
          await page.screenshot({ path: `${SHOTS}/${view.name}-${device.name}-${scheme}.png`, fullPage: true });
          expect(refused, where).toEqual([]);
          expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations), where).toEqual([]);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow, where).toBeLessThanOrEqual(0);
          if (view.name === 'case') {
            // The DEA checks fit their region: no reason cut off behind a sideways scroll.
            const dea = page.getByRole('region', { name: 'DEA number' });
            expect(await dea.evaluate((el) => el.scrollWidth - el.clientWidth), where).toBeLessThanOrEqual(0);
          }
        }
        await context.close();
      }
    }
  }, 240_000);

  it('a flagged user waits in the queue; the reviewer approves with a reason; the customer receives it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signIn(page);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Reviews', exact: true }).click();
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
    await page.getByText('1 field disagrees with the user').waitFor();
    await page
      .getByRole('img', { name: 'Portrait found on the front passport' })
      .or(page.getByRole('img', { name: /^Portrait found on the/ }))
      .first()
      .waitFor();
    await page.screenshot({ path: `${SHOTS}/case-desktop.png`, fullPage: true });

    // Zoom from the keyboard on the focused image.
    await page
      .getByRole('region', { name: /front passport image|front image/ })
      .or(page.getByRole('region', { name: /image: plus and minus zoom/ }))
      .first()
      .focus();
    await page.keyboard.press('+');
    await page.getByText('150 %').waitFor();

    await page.locator('textarea[data-method="document_id"]').fill(REASON);
    await page.getByRole('button', { name: 'Approve Document / ID' }).click();
    await page.getByText('Document / ID approved.').waitFor();

    const [delivery] = await hooks.waitFor(1, 30_000);
    const payload = JSON.parse(delivery!.body) as {
      type: string;
      data: {
        reference_id: string;
        verifications: { id: number; attributes: { review?: { reason?: string }; result?: { checks?: { name: string; outcome: string }[] } } }[];
      };
    };
    expect(payload.type).toBe('verification.completed');
    expect(payload.data.reference_id).toBe('cust-42');
    const entry = payload.data.verifications.find((v) => v.id === 3)!;
    expect(entry.attributes.review?.reason).toBe(REASON);
    expect(entry.attributes.result?.checks?.find((c) => c.name === 'photoshopped')?.outcome).toBe('flagged');

    // The timeline shows the decision with who and why, and the delivery.
    await page
      .getByRole('cell', { name: new RegExp(`${ADMIN.email}.*genuine`) })
      .first()
      .waitFor();

    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    await signIn(phone);
    await phone.goto(`${base}/admin/users/${userId}`);
    await phone.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
    await phone.getByText('1 field disagrees with the user').waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await phone.screenshot({ path: `${SHOTS}/case-phone.png`, fullPage: true });
    // Names what sticks out, so a failure says where.
    const offenders =
      overflow > 0
        ? await phone.evaluate(() => {
            const out: string[] = [];
            const walk = (root: Document | ShadowRoot) => {
              for (const el of root.querySelectorAll('*')) {
                const r = el.getBoundingClientRect();
                if (r.right > document.documentElement.clientWidth + 1) out.push(`${el.tagName}.${el.className} ${Math.round(r.right)}`);
                if (el.shadowRoot) walk(el.shadowRoot);
              }
            };
            walk(document);
            return out.slice(0, 15).join('\n');
          })
        : '';
    expect(overflow, offenders).toBeLessThanOrEqual(0);
  }, 120_000);
});
