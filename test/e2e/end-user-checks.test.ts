/**
 * End to end for issue 24 on the hosted page, in Debian's Chromium against a running Verity:
 * consent before biometric steps (declined, then given, recorded on the server), knowledge from
 * the user's own facts (a wrong sheet, then the right one with a multiple choice), a broken PDF
 * refused in the browser before any upload, and a refusal by the server shown live.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { consentState } from '../../server/session/consent.js';
import { sdb } from '../../server/session/tables.js';
import { writeSetting } from '../../server/store/repos/settings-repo.js';
import { insertTemplate } from '../../server/store/repos/templates-repo.js';
import { CHROMIUM_PATH, chromiumArgs } from '../helpers/chromium.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createUser, local } from '../server/session/fixtures.js';

const root = resolve(import.meta.dirname, '../..');
let browser: Browser;
let server: TestServer;
let context: BrowserContext;

beforeAll(async () => {
  const built = spawnSync(process.execPath, ['scripts/ensure-web-build.mjs'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) throw new Error('building dist/web failed');
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: chromiumArgs() });
}, 240_000);
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  // No analysis worker: the test decides what the server refuses.
  server = await startTestServer({ queues: ['notify'] });
  await writeSetting(server.verity.ctx.db, 'account_name', 'Acme Bank');
  context = await browser.newContext({ locale: 'en-GB' });
});
afterEach(async () => {
  await context?.close();
  await server.close();
});

async function template(name: string, methodIds: number[]): Promise<string> {
  await insertTemplate(server.verity.ctx.db, { name, label: name, methodIds, workflowRawIds: [], createdAt: server.clock.now().toISOString() });
  return name;
}

/** Opens the user's link on the hosted page, collecting `verify-error` codes, and presses Start. */
async function open(link: string): Promise<Page> {
  const page = await context.newPage();
  await page.addInitScript(() => {
    (window as unknown as { errors: string[] }).errors = [];
    document.addEventListener('verify-error', (e) => (window as unknown as { errors: string[] }).errors.push((e as CustomEvent<{ code: string }>).detail.code));
  });
  await page.goto(local(server, link));
  await page.getByRole('button', { name: 'Start' }).click();
  return page;
}

const errorCodes = (page: Page) => page.evaluate(() => (window as unknown as { errors: string[] }).errors);

/** Consents; the box names what the template captures (a document alone is not "document and face"). */
async function agree(page: Page, label = 'I agree that my document and face are captured'): Promise<void> {
  await page.getByRole('heading', { name: 'Before we use your camera' }).waitFor();
  await page.getByLabel(label).check();
  await page.getByRole('button', { name: 'Agree and continue' }).click();
}

describe('the end user, issue 24', () => {
  it('is asked for consent before the camera; declining leaves cleanly, agreeing is recorded and opens the step', async () => {
    const { id, link } = await createUser(server, { email: 'consent@example.com', template_id: await template('tmpl_doc_selfie', [3, 22]) });
    const page = await open(link);
    await page.getByRole('heading', { name: 'Before we use your camera' }).waitFor();
    await page.getByRole('button', { name: 'I do not agree' }).click();
    await page.getByRole('heading', { name: 'You chose not to continue' }).waitFor();
    expect(await errorCodes(page)).toContain('consent_declined');
    expect(await consentState.read(server.verity.ctx.db, id)).toMatchObject({ decision: 'declined', text_version: 'default-1' });
    expect(await page.locator('verify-step-document').count()).toBe(0);
    await page.getByRole('button', { name: 'Read the consent again' }).click();
    await agree(page);
    await page.getByRole('heading', { name: 'Photograph your ID document' }).waitFor();
    expect(await consentState.read(server.verity.ctx.db, id)).toMatchObject({ decision: 'given', text_version: 'default-1' });
  }, 120_000);

  it("asks the user's own facts: a wrong sheet is refused with the attempts left, the right one (with a multiple choice) passes", async () => {
    const facts = {
      knowledge: {
        questions: [
          { id: 'city', prompt: 'In which city did you open your account?', answer: 'Genève' },
          { id: 'born', prompt: 'Pick your date of birth', kind: 'date', answer: '1990-04-12', ask_as: 'choice' },
        ],
        max_attempts: 3,
      },
    };
    const { link } = await createUser(server, {
      email: 'facts@example.com',
      template_id: await template('tmpl_knowledge', [21]),
      custom_verify_data: JSON.stringify(facts),
    });
    const page = await open(link);
    await page.getByRole('heading', { name: 'Answer a few questions' }).waitFor();
    await page.getByText('2 correct answers are needed.').waitFor();
    const dates = await page.locator('verify-step-knowledge input[name="born"]').count();
    expect(dates).toBe(4);
    await page.getByLabel('In which city did you open your account?').fill('Lausanne');
    await page.getByLabel('1990-04-12').check();
    await page.getByRole('button', { name: 'Submit answers' }).click();
    await page.getByText('Some answers are not right. 2 attempts left.').waitFor();
    await page.getByLabel('In which city did you open your account?').fill('  GENEVE ');
    await page.getByRole('button', { name: 'Submit answers' }).click();
    await page.getByRole('heading', { name: 'Thank you, you are done' }).waitFor();
  }, 120_000);

  it('refuses a broken PDF in the browser before anything is sent, and shows the server refusing a sent document live', async () => {
    const { id, link } = await createUser(server, { email: 'upload@example.com', template_id: await template('tmpl_doc_email', [3, 1]) });
    const page = await open(link);
    await agree(page, 'I agree to the capture and checking of my identity document to verify my identity.');
    await page.getByRole('heading', { name: 'Photograph your ID document' }).waitFor();
    const radio = page.locator('verify-step-document input[type=radio]');
    if ((await radio.count()) > 0) await radio.first().check();
    await page.getByRole('button', { name: 'Upload a file', exact: true }).click();
    const broken = Buffer.from(`%PDF-1.7\n${'not a pdf object at all '.repeat(50)}`);
    await page.locator('verify-step-document input[type=file]').setInputFiles({ name: 'id.pdf', mimeType: 'application/pdf', buffer: broken });
    await page.getByText('This file cannot be opened: it may be damaged. Choose another file.').waitFor();
    const uploads = await sdb(server.verity.ctx.db).selectFrom('session_uploads').select('id').where('user_id', '=', id).execute();
    expect(uploads).toHaveLength(0);

    const png = await sharp({ create: { width: 640, height: 400, channels: 3, background: '#8899aa' } })
      .png()
      .toBuffer();
    await page.locator('verify-step-document input[type=file]').setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('button', { name: 'Use this and submit' }).click();
    await page.getByRole('heading', { name: 'Confirm your e-mail address' }).waitFor();
    // The server refuses the document (as the analysis would) while the user is on the next step.
    const workflow = await server.verity.ctx.db
      .selectFrom('user_workflows')
      .innerJoin('workflows', 'workflows.raw_id', 'user_workflows.workflow_raw_id')
      .select('workflows.public_id')
      .where('user_workflows.user_id', '=', id)
      .executeTakeFirstOrThrow();
    const refused = await server.api(`/api/users/${id}/verifications`, {
      method: 'PATCH',
      body: { verification_id: 'document_id', status: 'rejected', current_workflow_id: workflow.public_id, remarks: 'The document could not be read.' },
    });
    expect(refused.status, refused.text).toBe(200);
    const alert = page.locator('verify-flow .refusal');
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toContain('Photograph your ID document');
    expect(await errorCodes(page)).toContain('method_rejected');
    await page.getByRole('button', { name: 'Do this step again' }).click();
    await page.getByRole('button', { name: 'Try this step again' }).waitFor();
  }, 120_000);
});
