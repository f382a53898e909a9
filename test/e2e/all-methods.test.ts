/**
 * All sixteen methods in one run (issue 22): one real Verity and one Debian Chromium (headless, a
 * fake camera playing a generated head and a fake microphone playing espeak-ng). An operator makes
 * a template of every method through the dashboard API; the customer creates a user with it; the
 * user opens the link on the hosted page and does each step as a person would, in the order the
 * flow shows them (the test drives the step on screen, not a fixed list): codes from the outbox,
 * an authenticator app, a passkey (virtual authenticator), sign-ins at a real OpenID Connect
 * provider, files of a passport and a payment card, the head before the camera, digits read
 * aloud, deposits the operator pays by hand, and an agent in a second context who approves the
 * video call. The flow ends at the customer's completion URL; every method has its final status.
 *
 * Liveness cannot be passed here: its screen flash shows colours the server draws at random, and a
 * pre-written camera file cannot reflect them. Its attempts fail and the last one, which a person
 * checks, leaves it in review: that is what is asserted, not a pass.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseDocument, analyseFrames, analyseSelfie } from '../../server/analysis/index.js';
import { systemClock } from '../../server/clock.js';
import { VerificationStatus } from '../../server/domain/catalogue.js';
import { writeSetting } from '../../server/store/repos/settings-repo.js';
import { createEndpoint } from '../../server/webhooks/endpoints.js';
import type { VideoMove } from '../../src/api/contract.js';
import { documentPhoto, IDENTITIES } from '../fixtures/set.js';
import { confirmPaymentAccount, setUpAuthenticator, signInAtProvider } from '../helpers/account-steps.js';
import { CHROMIUM_PATH, chromiumArgs } from '../helpers/chromium.js';
import { fakeMediaArgs, readPhraseAloud, videoTimeline, writeHeadCamera } from '../helpers/fake-media.js';
import { agentOnLiveVideo, answerKnowledge, confirmCode, operatorPaysDeposits, takeCall, uploadDocument, type Agent } from '../helpers/flow-steps.js';
import { ensureWebBuild, startCustomerSite, watchedPage, type CustomerSite } from '../helpers/hosted-e2e.js';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.js';
import { items, startTestServer, type TestServer } from '../helpers/server.js';
import { digitWords, synthetic } from '../helpers/speech.js';
import { addPlatformAuthenticator } from '../helpers/virtual-authenticator.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, signedInAdmin, type AdminClient } from '../server/http/admin/admin-client.js';
import { configureProvider } from '../server/methods/oidc/fixtures.js';
import { configureKnowledge } from '../server/session/fixtures.js';
import { freePort } from '../server/scale/processes.js';
import { cardSceneSvg } from '../src/fixtures/card-scene.mjs';
import { startReceiver, type Receiver } from '../server/webhooks/receiver.js';

/** Every method of spec 2.2 by key: the template holds them all. */
const ALL_KEYS = [
  'email',
  'phone',
  'document_id',
  'payment_account',
  'video',
  'voice',
  'secure_card',
  'geolocation',
  'social_account',
  'two_step',
  'bank',
  'live_video',
  'biometric_id',
  'liveness',
  'knowledge',
  'selfie',
];
/** The passport's holder (demo face 3, the face the fake camera plays). */
const PERSON = IDENTITIES[3]!;
const EMAIL = 'chloe@example.com';
const PHONE = '+33612345678';
const IBAN = 'DE89370400440532013000';
/** A step refused by the server may be done again this many times (liveness: its three failed attempts). */
const MAX_RETRIES = 3;

const dir = mkdtempSync(join(tmpdir(), 'verity-all-methods-'));
const camera = join(dir, 'camera.y4m');
const microphone = join(dir, 'microphone.wav');

let browser: Browser;
let server: TestServer;
let site: CustomerSite;
let idp: TestOidcProvider;
let hooks: Receiver;
let admin: AdminClient;
let agent: Agent | undefined;

beforeAll(async () => {
  ensureWebBuild();
  // Chromium reads the camera's frame size when it lists it: the head's size, for every later file.
  await writeHeadCamera(camera, videoTimeline([]));
  writeFileSync(microphone, synthetic('silence', 1));
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...chromiumArgs(), ...fakeMediaArgs(camera, microphone), '--autoplay-policy=no-user-gesture-required'],
  });
  // The passkey's relying party, the provider's return URL and the dashboard's origin all name
  // the base URL, http://localhost:<port>: the port is chosen before the server starts.
  const port = await freePort();
  idp = await startOidcProvider(`http://localhost:${port}/oidc/callback`);
  idp.accounts.set('chloe', { email: EMAIL, email_verified: true });
  idp.accounts.set('payer', { email: 'pay@shop.example', email_verified: true });
  // The real clock: the face methods check each frame's time against the time since the challenge.
  server = await startTestServer({ port, analysis: { analyseDocument, analyseSelfie, analyseFrames }, clock: systemClock });
  site = await startCustomerSite();
  const db = server.verity.ctx.db;
  await writeSetting(db, 'account_name', 'Acme Bank');
  await writeSetting(db, 'allowed_countries', ['FR']);
  await configureKnowledge(server);
  await configureProvider(server, idp, 'social', 'TestID');
  await configureProvider(server, idp, 'payment', 'PayProvider');
  hooks = await startReceiver();
  await createEndpoint(db, { url: hooks.url, events: [] }, new Date(), server.config.secret);
  admin = await signedInAdmin(server);
  // The operator gives each liveness move 10 s (the dashboard's setting; 30 by default): the
  // head that cannot make the move fails each attempt sooner.
  expect((await admin.request('PATCH', '/admin/api/settings', { liveness_move_seconds: 10 })).status).toBe(200);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await hooks?.close();
  await idp?.close();
  await site?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What the flow shows: a step's key, or one of its other screens. */
type Screen = string;

/** Whether `error` is the page navigating away (to the completion URL) under an evaluation. */
const navigatedAway = (error: unknown) => error instanceof Error && /context was destroyed|navigat/i.test(error.message);

/** Reads the flow's screen in the page (through its shadow root); null while it loads, completes or leaves. */
async function readScreen(page: Page): Promise<Screen | null> {
  return page
    .evaluate(() => {
      if (location.pathname.startsWith('/done')) return 'done';
      const flow = document.querySelector('verify-flow');
      const root = flow?.shadowRoot;
      if (!flow || !root) return null;
      const phase = flow.getAttribute('phase');
      const buttons = [...root.querySelectorAll('button')].map((b) => b.textContent?.trim());
      if (buttons.includes('Do this step again')) return 'refused';
      if (phase === 'consent') return 'consent';
      if (phase !== 'steps') return phase === 'failed' ? 'failed' : null;
      if (buttons.includes('Try this step again')) return 'rejected';
      if (buttons.includes('Continue')) return 'step-done';
      const step = [...root.querySelectorAll('section.step *')].find((e) => e.tagName.startsWith('VERIFY-STEP-'));
      return step ? `tag:${step.tagName.slice('VERIFY-STEP-'.length).toLowerCase()}` : null;
    })
    .catch((error: unknown) => {
      if (navigatedAway(error)) return null;
      throw error;
    });
}

/** Waits for the flow to show a screen (anything but loading, or the result counting down to the redirect). */
async function nextScreen(page: Page): Promise<Screen> {
  const handle = await page
    .waitForFunction(
      () => {
        if (location.pathname.startsWith('/done')) return 'done';
        const flow = document.querySelector('verify-flow');
        const phase = flow?.getAttribute('phase');
        return phase && !['starting', 'completing', 'checking', 'done'].includes(phase)
          ? phase
          : flow?.shadowRoot?.querySelector('.refusal')
            ? 'refused'
            : false;
      },
      undefined,
      { timeout: 120_000, polling: 200 },
    )
    .catch((error: unknown) => {
      if (navigatedAway(error)) return null;
      throw error;
    });
  await handle?.dispose();
  const screen = await readScreen(page);
  if (screen === null) return nextScreen(page);
  return screen.startsWith('tag:') ? (ALL_KEYS.find((key) => `tag:${tagOf(key)}` === screen) ?? screen) : screen;
}

/** The step element's tag of a method key (`verify-step-<tag>`): the key, hyphenated, but for the document. */
const tagOf = (key: string): string => (key === 'document_id' ? 'document' : key.replace(/_/g, '-'));
/** The step element of `key` on the page. */
const stepOf = (page: Page, key: string) => page.locator(`verify-step-${tagOf(key)}`);

/** Waits for the step to leave the screen (done: the flow moved on). */
async function stepLeft(page: Page, key: string, timeout = 120_000): Promise<void> {
  await stepOf(page, key).waitFor({ state: 'detached', timeout });
}

/** Writes the fake camera file before the step opens the camera (Chromium reads it then). */
const cameraPlays = (poses: Parameters<typeof writeHeadCamera>[1]) => writeHeadCamera(camera, poses);

/** Each step as the user does it; answers once the step is done (or, for liveness, its attempt). */
const STEPS: Record<string, (page: Page) => Promise<void>> = {
  email: async (page) => confirmCode(page, server, EMAIL, 'email'),
  phone: async (page) => confirmCode(page, server, PHONE, 'phone'),
  geolocation: async (page) => page.getByRole('button', { name: 'Share my location' }).click(),
  knowledge: answerKnowledge,
  two_step: async (page) => {
    await setUpAuthenticator(page, server);
  },
  biometric_id: async (page) => page.getByRole('button', { name: 'Create a passkey' }).click(),
  social_account: async (page) => signInAtProvider(page, 'Continue with TestID', 'chloe'),
  payment_account: async (page) => confirmPaymentAccount(page, server, { email: 'pay@shop.example', account: 'payer' }),
  document_id: async (page) => {
    const photo = await documentPhoto(3, 'passport', 'clean');
    await uploadDocument(page, { name: 'passport.jpg', mimeType: 'image/jpeg', buffer: photo });
  },
  secure_card: async (page) => {
    const step = stepOf(page, 'secure_card');
    const card = await sharp(Buffer.from(cardSceneSvg({ width: 1280, height: 720, card: 0.62, name: `${PERSON.first} ${PERSON.last}`, expiry: '08/29' })))
      .png()
      .toBuffer();
    await step.getByRole('button', { name: 'Upload a file' }).click();
    await step.locator('input[type=file]').setInputFiles({ name: 'card.png', mimeType: 'image/png', buffer: card });
    await step.getByRole('heading', { name: 'Check what will be sent' }).waitFor({ timeout: 60_000 });
    await step.getByRole('button', { name: 'Send' }).click();
  },
  selfie: async (page) => {
    await cameraPlays(videoTimeline([]));
    await stepOf(page, 'selfie').getByRole('button', { name: 'Start the camera' }).click();
  },
  liveness: async (page) => {
    const step = stepOf(page, 'liveness');
    // A head that only looks straight: it passes the look and sits through the flash, then cannot
    // make the move asked, so each attempt fails on the device; after three, the last try is sent
    // for a person to check. (A head that makes every move still cannot follow the flash: the
    // server refuses it later than the flow waits for, when the completion redirect has already
    // taken the user away from the page that would offer the retry.)
    await cameraPlays(videoTimeline([]));
    for (let attempt = 0; attempt < 4; attempt++) {
      await step.getByRole('button', { name: /Start the camera|Try once more/ }).click();
      const failed = step.getByRole('alert').filter({ hasText: /took too long|did not work three times/ });
      const outcome = await Promise.race([
        step.waitFor({ state: 'detached', timeout: 120_000 }).then(() => 'sent'),
        failed.waitFor({ timeout: 120_000 }).then(() => 'failed'),
      ]);
      trace(`liveness attempt ${attempt + 1}: ${outcome}`);
      if (outcome === 'sent') return;
    }
  },
  video: async (page) => {
    const step = stepOf(page, 'video');
    await step.getByRole('button', { name: 'Show me the moves' }).click();
    await step.locator('ol.moves li').first().waitFor();
    const moves = (await step.locator('ol.moves li').allTextContents()).map((text): VideoMove => (text.includes('left') ? 'turn_left' : 'turn_right'));
    await cameraPlays(videoTimeline(moves));
    await step.getByRole('button', { name: 'Start recording' }).click();
  },
  voice: async (page) => {
    await readPhraseAloud(page, microphone, { ask: 'Show my phrase', record: 'Start recording', stop: 'Stop and send' }, digitWords);
  },
  bank: async (page) => {
    const step = stepOf(page, 'bank');
    await step.getByLabel('Name on the account').fill(`${PERSON.first} ${PERSON.last}`);
    await step.getByRole('textbox', { name: 'IBAN' }).fill('DE89 3704 0044 0532 0130 00');
    await step.getByRole('button', { name: 'Send the deposits' }).click();
    await step.getByText('account ending 3000').waitFor();
    const [first, second] = await operatorPaysDeposits(server, admin, IBAN);
    await step.getByLabel('First deposit (EUR)').fill(second);
    await step.getByLabel('Second deposit (EUR)').fill(first);
    await step.getByRole('button', { name: 'Confirm' }).click();
  },
  live_video: async (page) => {
    await stepOf(page, 'live_video').getByRole('button', { name: 'Join the video call' }).click();
    agent ??= await agentOnLiveVideo(browser, server.config.baseUrl, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    await takeCall(agent.page, page, `${PERSON.first} ${PERSON.last}`);
    await agent.page.getByRole('button', { name: 'Record the decision' }).click();
  },
};

/** With VERITY_E2E_TRACE set, each screen met is written out as it comes (where did a slow run spend its time). */
function trace(line: string): void {
  if (process.env.VERITY_E2E_TRACE) process.stderr.write(`all-methods: ${line}\n`);
}

/** Drives the flow on `page` to its end; answers the steps done, in order, and the refusals met. */
async function driveFlow(page: Page): Promise<{ done: string[]; refused: string[] }> {
  const done: string[] = [];
  const refused: string[] = [];
  const t0 = Date.now();
  for (;;) {
    const screen = await nextScreen(page);
    trace(`${((Date.now() - t0) / 1000).toFixed(1)} s: ${screen}`);
    if (screen === 'done') return { done, refused };
    if (screen === 'failed') throw new Error(`the flow failed: ${await page.locator('verify-flow').innerText()}`);
    if (screen === 'consent') {
      await page.locator('verify-consent').getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Agree and continue' }).click();
      await page.locator('verify-consent').waitFor({ state: 'detached' });
    } else if (screen === 'refused' || screen === 'rejected') {
      const text = await page.locator('verify-flow [role="alert"]').first().innerText();
      refused.push(text);
      if (refused.length > MAX_RETRIES * 2) throw new Error(`too many refusals: ${refused.join(' | ')}`);
      const button = screen === 'refused' ? 'Do this step again' : 'Try this step again';
      await page.getByRole('button', { name: button }).first().click();
      await page.getByRole('button', { name: button }).first().waitFor({ state: 'detached' });
    } else if (screen === 'step-done') {
      // Shown for a moment while the next step's module loads: pressed only when it stays.
      const stays = await expect
        .poll(() => readScreen(page), { timeout: 5_000 })
        .not.toBe('step-done')
        .then(
          () => false,
          () => true,
        );
      if (stays) await page.getByRole('button', { name: 'Continue', exact: true }).click();
    } else {
      const step = STEPS[screen];
      if (!step) throw new Error(`no way to do the step ${screen}`);
      if (done.filter((k) => k === screen).length > MAX_RETRIES) throw new Error(`${screen} came back too often`);
      await step(page);
      await stepLeft(page, screen);
      done.push(screen);
    }
  }
}

describe('a template of all sixteen methods', () => {
  it('hosted page: every step as the user does it → completion redirect; every method with its final status', async () => {
    const created = await admin.request('POST', '/admin/api/templates', { name: 'tmpl_all', label: 'Everything', methods: ALL_KEYS });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const user = await server.api('/api/users', {
      body: {
        email: EMAIL,
        phone: PHONE,
        first_name: PERSON.first,
        last_name: PERSON.last,
        template_id: 'tmpl_all',
        reference_id: 'ref-all',
        completion_url: `${site.url}/done`,
      },
    });
    expect(user.status, user.text).toBe(200);
    const id = Number(user.body.id);
    const link = String(user.body.magic_link);
    expect(new URL(link).origin).toBe(server.config.baseUrl);

    const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    await context.grantPermissions(['geolocation', 'camera', 'microphone'], { origin: server.config.baseUrl });
    await context.setGeolocation({ latitude: 48.8566, longitude: 2.3522, accuracy: 20 });
    const { page } = await watchedPage(context);
    await addPlatformAuthenticator(context, page);
    await page.goto(link);
    await page.getByRole('button', { name: 'Start' }).click();
    const { done, refused } = await driveFlow(page).catch(async (error: unknown) => {
      if (process.env.VERITY_E2E_TRACE) await page.screenshot({ path: join(process.env.VERITY_E2E_TRACE, 'all-methods-failure.png'), fullPage: true });
      throw error;
    });
    console.log(`steps done: ${done.join(', ')}; refusals: ${refused.join(' | ') || 'none'}`);

    // The customer's site answered the completion redirect.
    const reached = new URL(page.url());
    expect(reached.origin + reached.pathname).toBe(`${site.url}/done`);
    expect(reached.searchParams.get('reference_id')).toBe('ref-all');
    expect(reached.searchParams.get('status')).toBe('completed');
    await page.getByRole('heading', { name: 'Thanks' }).waitFor();
    expect(new Set(done)).toEqual(new Set(ALL_KEYS));

    // Every method, decided: verified, and liveness with a person (never passed by a camera file).
    await server.verity.ctx.queue.whenIdle();
    const read = (await server.api(`/api/users/${id}`)).body.data;
    const statuses = Object.fromEntries(items(read.verifications).map((v) => [Number(v.id), Number(v.status.value)]));
    const expected = Object.fromEntries(
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 20, 21, 22].map((m) => [m, m === 20 ? VerificationStatus.complete_in_review : VerificationStatus.complete]),
    );
    expect(statuses).toEqual(expected);

    // The customer's webhook heard each method complete (liveness is not: it waits for a person),
    // and the user move to Review once everything was in.
    const heard = () => hooks.received.map((r) => JSON.parse(r.body) as { type: string; data: { verification_id?: number | null; user_status?: string } });
    const completedIds = new Set(
      Object.keys(expected)
        .map(Number)
        .filter((m) => m !== 20),
    );
    await expect
      .poll(
        () =>
          new Set(
            heard()
              .filter((e) => e.type === 'verification.completed')
              .map((e) => e.data.verification_id),
          ),
        { timeout: 30_000 },
      )
      .toEqual(completedIds);
    await expect
      .poll(
        () =>
          heard()
            .filter((e) => e.type === 'user.status.changed')
            .at(-1)?.data.user_status,
        { timeout: 30_000 },
      )
      .toBe('Review');
    expect((await server.api(`/api/users/${id}`)).body.data.status).toBe('Review');
    await context.close();
    await agent?.context.close();
  }, 480_000);
});
