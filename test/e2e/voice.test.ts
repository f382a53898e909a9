/**
 * Voice end to end (issue 22): Debian's Chromium with a fake microphone that plays a WAV file
 * (`--use-file-for-fake-audio-capture`). The test reads the phrase the hosted page shows, has
 * espeak-ng speak it into that file before the step opens the microphone, and the page records,
 * sends and follows the completion redirect; the durable queue's worker then hears the digits.
 * Then on a phone in Arabic, other digits are read: the refusal is shown in the user's words.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertTemplate } from '../../server/store/repos/templates-repo.js';
import { CHROMIUM_PATH, chromiumArgs } from '../helpers/chromium.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { digitWords, speak, synthetic } from '../helpers/speech.js';
import { createUser, local } from '../server/session/fixtures.js';

const root = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'verity-voice-e2e-'));
/** What the fake microphone plays; written anew before each recording starts. */
const microphone = join(dir, 'microphone.wav');

let browser: Browser;
let server: TestServer;
let site: Server;
let siteUrl: string;

beforeAll(async () => {
  const built = spawnSync(process.execPath, ['scripts/ensure-web-build.mjs'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) throw new Error('building dist/web failed');
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
  site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>done</title><h1>Thanks</h1>'));
  await new Promise<void>((ok) => site.listen(0, '127.0.0.1', ok));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  await insertTemplate(server.verity.ctx.db, {
    name: 'tmpl_voice',
    label: 'Voice',
    methodIds: [6],
    workflowRawIds: [],
    createdAt: server.clock.now().toISOString(),
  });
});
afterEach(async () => {
  await new Promise((ok) => site.close(ok));
  await server.close();
});

interface Labels {
  agree: string;
  give: string;
  ask: string;
  record: string;
  stop: string;
}

/** Consents, asks for the phrase, puts `say(digits)` on the microphone, records it and sends it. */
async function readAloud(page: Page, labels: Labels, say: (digits: string) => string): Promise<string> {
  await page.getByLabel(labels.agree).check();
  await page.getByRole('button', { name: labels.give }).click();
  await page.getByRole('button', { name: labels.ask }).click();
  const digits = (await page.locator('verify-step-voice #voice-digits-text').textContent())!.replace(/\s/g, '');
  expect(digits).toMatch(/^\d{6}$/);
  // Chromium opens the file when the step opens the microphone: it plays what is written now, in
  // a loop; the silence after the speech keeps the loop's second reading out of the recording.
  // The file starts playing when the microphone opens, a moment before MediaRecorder starts: on a
  // loaded machine that moment swallowed the first digit behind 0.2 s of silence, so 1.2 s lead in.
  const speech = speak(say(digits), { pad: 1.2 });
  writeFileSync(microphone, speak(say(digits), { pad: 1.2, tail: 5 }));
  await page.getByRole('button', { name: labels.record }).click();
  await page.locator('verify-step-voice .recording').waitFor();
  // The whole phrase (16-bit samples at 16 kHz after the header), and a little more, before stopping.
  await page.waitForTimeout((speech.length - 44) / 32 + 300);
  await page.getByRole('button', { name: labels.stop }).click();
  return digits;
}

async function voiceRow(userId: number) {
  await server.verity.ctx.queue.whenIdle();
  const row = await server.verity.ctx.db
    .selectFrom('user_verifications')
    .selectAll()
    .where('user_id', '=', userId)
    .where('method_id', '=', 6)
    .executeTakeFirstOrThrow();
  return { status: row.status, remarks: row.remarks, attributes: JSON.parse(row.attributes) as Record<string, unknown> };
}

describe('Voice in Chromium with a fake microphone', () => {
  it('hosted page: consent → phrase → read aloud → completion redirect; the worker hears the phrase', async () => {
    const { id, link } = await createUser(server, {
      email: 'e2e-voice@example.com',
      template_id: 'tmpl_voice',
      reference_id: 'ref-voice',
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
    expect(errors.filter((e) => /Content Security Policy|Refused|Permissions policy/.test(e))).toEqual([]);
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
