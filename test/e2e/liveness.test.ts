/**
 * The Liveness method end to end (issue 20) against a print: Debian's Chromium, driven by
 * playwright-core, opens a user's magic link on the hosted page, consents, and shows Chromium's
 * fake camera a printed photo of a face (the halftoned, photographed print of the evaluation's
 * attacks, test/fixtures/hard/attacks.ts), written at test time as a y4m file into a temporary
 * folder. The print looks straight, so the widget goes on to the screen flash; it cannot turn or
 * come closer, so every attempt fails (after the account's 10 s for the move). After three, the page shows help and the other ways
 * forward, and the one last try goes to a person with the server's analysis of what it saw:
 * rejected, the flash not followed. Nothing loops, and nothing is accepted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseDocument, analyseFrames, analyseSelfie } from '../../server/analysis/index.js';
import { systemClock } from '../../server/clock.js';
import { VerificationStatus } from '../../server/domain/catalogue.js';
import { faceState } from '../../server/methods/face/use-cases.js';
import { writeSetting } from '../../server/store/repos/settings-repo.js';
import { insertTemplate } from '../../server/store/repos/templates-repo.js';
import { addNoise } from '../fixtures/documents.js';
import { portrait } from '../fixtures/faces.js';
import { printedPhoto } from '../fixtures/hard/attacks.js';
import { CHROMIUM_PATH, chromiumArgs } from '../helpers/chromium.js';
import { HEAD_FACE, writeCameraFrames } from '../helpers/fake-media.js';
import { ensureWebBuild, methodRow, consentedCameraFlowOnPhone, policyErrors, startCustomerSite, type CustomerSite } from '../helpers/hosted-e2e.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createUser, local } from '../server/session/fixtures.js';

/** Our method id of Liveness. */
const LIVENESS = 20;

let dir: string;
let browser: Browser;
let server: TestServer;
let site: CustomerSite;

/** A print of demo face `face` held in front of the camera: the same picture, fresh sensor noise per frame. */
async function printFrames(face: number, count: number): Promise<Buffer[]> {
  const print = await printedPhoto(await portrait(face, { width: 480, margin: 0.55, alone: true }), 4242);
  const { data, info } = await sharp(print).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return Promise.all(
    Array.from({ length: count }, (_, i) => {
      const noisy = Buffer.from(data);
      addNoise(noisy, 2.5, 77 + i);
      return sharp(noisy, { raw: { width: info.width, height: info.height, channels: 3 } })
        .png()
        .toBuffer();
    }),
  );
}

beforeAll(async () => {
  ensureWebBuild();
  // Generated at test time, never committed: the camera file lives in a temporary folder.
  dir = mkdtempSync(join(tmpdir(), 'verity-liveness-e2e-'));
  const camera = join(dir, 'camera-print.y4m');
  await writeCameraFrames(camera, await printFrames(HEAD_FACE, 10));
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: chromiumArgs(camera) });
  // The real clock: the server checks each frame's time against the time passed since the challenge.
  server = await startTestServer({ analysis: { analyseDocument, analyseSelfie, analyseFrames }, clock: systemClock });
  site = await startCustomerSite();
  await writeSetting(server.verity.ctx.db, 'account_name', 'Acme Bank');
  await writeSetting(server.verity.ctx.db, 'handoff_enabled', true);
  // The account gives each move 10 s (the dashboard's setting, 30 by default): each attempt of
  // the print, which cannot turn, ends that much sooner.
  await writeSetting(server.verity.ctx.db, 'liveness_move_seconds', 10);
  await insertTemplate(server.verity.ctx.db, {
    name: 'tmpl_liveness',
    label: 'Liveness',
    methodIds: [LIVENESS],
    workflowRawIds: [],
    createdAt: server.clock.now().toISOString(),
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('Liveness in Chromium', () => {
  it('a printed photo as the camera: each attempt fails, help and the other ways after three, the last try goes to a person as rejected', async () => {
    const { id, link } = await createUser(server, {
      email: 'e2e-liveness-print@example.com',
      template_id: 'tmpl_liveness',
      reference_id: 'ref-liveness-print',
      completion_url: `${site.url}/done`,
    });
    const { context, page, errors } = await consentedCameraFlowOnPhone(browser, server.url, local(server, link));
    await page.getByRole('heading', { name: 'Show that it is really you' }).waitFor();
    const step = page.locator('verify-step-liveness');
    const alert = step.getByRole('alert');

    /** One attempt with the print: it looks straight, sits through the flash, and cannot make the move. */
    const failedAttempt = async (button: string, expected: string): Promise<void> => {
      await step.getByRole('button', { name: button }).click();
      // The print passes the on-device straight look: the flash comes, then a move it cannot make.
      await step.getByRole('status').filter({ hasText: 'it will change colour' }).waitFor({ timeout: 90_000 });
      await alert.filter({ hasText: expected }).waitFor({ timeout: 120_000 });
      expect(await step.getByRole('status').count()).toBe(0);
    };
    await failedAttempt('Start the camera', 'That took too long. Let us try again with new moves.');
    expect(await step.getByRole('list').count()).toBe(0);
    await failedAttempt('Start the camera', 'That took too long. Let us try again with new moves.');
    await failedAttempt('Start the camera', 'This did not work three times. The last time, the camera did not see the moves before the time ran out.');

    // After the third: help (for the moves, on a phone), the hand-off to another device, and one last try that a person checks.
    expect(await step.getByRole('listitem').allTextContents()).toEqual([
      'Hold the phone at eye level, about an arm’s length away.',
      'Turn your head slowly and keep your face inside the oval.',
      'Face a window or a lamp; avoid a bright light behind you.',
    ]);
    expect(await step.getByRole('button', { name: 'Continue on another device' }).isVisible()).toBe(true);
    expect(await step.getByRole('button', { name: 'Start the camera' }).count()).toBe(0);
    // The server counted three attempts and decided nothing: no capture was sent for analysis.
    expect((await faceState('liveness').read(server.verity.ctx.db, id))?.attempts_used).toBe(3);
    const before = await server.verity.ctx.db
      .selectFrom('user_verifications')
      .select('status')
      .where('user_id', '=', id)
      .where('method_id', '=', LIVENESS)
      .executeTakeFirstOrThrow();
    expect([VerificationStatus.complete, VerificationStatus.complete_in_review, VerificationStatus.processing]).not.toContain(before.status);

    // The last try: the print fails the same way; what it captured is sent, and the flow ends.
    await step.getByRole('button', { name: 'Try once more (a person will check it)' }).click();
    await step.getByRole('status').filter({ hasText: 'it will change colour' }).waitFor({ timeout: 90_000 });
    await page.waitForURL(/\/done\?/, { timeout: 150_000 });
    expect(new URL(page.url()).searchParams.get('reference_id')).toBe('ref-liveness-print');

    // The server's analysis rejected what it saw; on the last attempt that goes to a reviewer, never to complete.
    const row = await methodRow(server, id, LIVENESS);
    expect(row.status).toBe(VerificationStatus.complete_in_review);
    expect(row.attributes).toMatchObject({ decision: 'rejected', last_attempt: true });
    const reasons = row.attributes['reasons'] as string[];
    expect(reasons).toContain('FLASH_NOT_FOLLOWED');
    expect(reasons).toContain('CHALLENGE_NOT_PERFORMED');
    expect(row.remarks).toContain('FLASH_NOT_FOLLOWED');
    expect((await faceState('liveness').read(server.verity.ctx.db, id))?.attempts_used).toBe(4);
    expect(policyErrors(errors)).toEqual([]);
    await context.close();
  }, 600_000);
});
