/**
 * Voice end to end (issue 22): Debian's Chromium with a fake microphone that plays a WAV file
 * (`--use-file-for-fake-audio-capture`). The test reads the phrase the hosted page shows, has
 * espeak-ng speak it into that file before the step opens the microphone, and the page records,
 * sends and follows the completion redirect; the durable queue's worker then hears the digits.
 * Then on a phone in Arabic, other digits are read: the refusal is shown in the user's words.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertTemplate } from '../../server/store/repos/templates-repo.js';
import { CHROMIUM_PATH, chromiumArgs } from '../helpers/chromium.js';
import { readPhraseAloud, type VoiceLabels } from '../helpers/fake-media.js';
import { ensureWebBuild, methodRow, openHosted, policyErrors, startCustomerSite, type CustomerSite } from '../helpers/hosted-e2e.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { digitWords, synthetic } from '../helpers/speech.js';
import { createUser, local } from '../server/session/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'verity-voice-e2e-'));
/** What the fake microphone plays; written anew before each recording starts. */
const microphone = join(dir, 'microphone.wav');

let browser: Browser;
let server: TestServer;
let site: CustomerSite;

beforeAll(async () => {
  ensureWebBuild();
  writeFileSync(microphone, synthetic('silence', 1));
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...chromiumArgs(), '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${microphone}`],
  });
}, 240_000);
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  server = await startTestServer({ queues: ['voice'] });
  site = await startCustomerSite();
  await insertTemplate(server.verity.ctx.db, {
    name: 'tmpl_voice',
    label: 'Voice',
    methodIds: [6],
    workflowRawIds: [],
    createdAt: server.clock.now().toISOString(),
  });
});
afterEach(async () => {
  await site.close();
  await server.close();
});

interface Labels extends VoiceLabels {
  agree: string;
  give: string;
}

/** Consents, then reads `say(digits)` of the phrase shown into the microphone and sends it. */
async function readAloud(page: Page, labels: Labels, say: (digits: string) => string): Promise<string> {
  await page.getByLabel(labels.agree).check();
  await page.getByRole('button', { name: labels.give }).click();
  return readPhraseAloud(page, microphone, labels, say);
}

const voiceRow = (userId: number) => methodRow(server, userId, 6);

describe('Voice in Chromium with a fake microphone', () => {
  it('hosted page: consent → phrase → read aloud → completion redirect; the worker hears the phrase', async () => {
    const { id, link } = await createUser(server, {
      email: 'e2e-voice@example.com',
      template_id: 'tmpl_voice',
      reference_id: 'ref-voice',
      completion_url: `${site.url}/done`,
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const { page, errors } = await openHosted(context, local(server, link));
    const digits = await readAloud(
      page,
      { agree: 'I agree', give: 'Agree and continue', ask: 'Show my phrase', record: 'Start recording', stop: 'Stop and send' },
      digitWords,
    );
    await page.waitForURL(/\/done\?/, { timeout: 60_000 });
    expect(new URL(page.url()).searchParams.get('reference_id')).toBe('ref-voice');
    const row = await voiceRow(id);
    expect(row.attributes).toMatchObject({ digits_heard: digits, digits_matched: true, speech_detected: true, speaker_identity_checked: false });
    expect(row.status).toBe(2);
    expect(policyErrors(errors)).toEqual([]);
    await context.close();
  }, 120_000);

  it("hosted page on a phone, in Arabic: other digits read are refused in the user's words", async () => {
    // A second step keeps the flow open, so the refusal arrives while the user is still on the page.
    await insertTemplate(server.verity.ctx.db, {
      name: 'tmpl_voice_geo',
      label: 'Voice and location',
      methodIds: [6, 8],
      workflowRawIds: [],
      createdAt: server.clock.now().toISOString(),
    });
    const { id, link } = await createUser(server, { email: 'e2e-voice-ar@example.com', template_id: 'tmpl_voice_geo' });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'ar', isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(local(server, link));
    await page.locator('verify-flow .intro button').click();
    const other = (digits: string) => digitWords([...digits].map((d) => String((Number(d) + 5) % 10)).join(''));
    await readAloud(page, { agree: 'أوافق', give: 'موافقة ومتابعة', ask: 'اعرض أرقامي', record: 'ابدأ التسجيل', stop: 'أوقف وأرسل' }, other);
    const refusal = page.locator('verify-flow .refusal[role="alert"]');
    await refusal.waitFor({ timeout: 60_000 });
    expect(await refusal.textContent()).toContain('الأرقام المسموعة لم تكن الأرقام المعروضة');
    expect(await page.locator('verify-flow').evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    const row = await voiceRow(id);
    expect(row).toMatchObject({ status: 3, remarks: 'VOICE_DIGITS_MISMATCH' });
    await context.close();
  }, 120_000);
});
