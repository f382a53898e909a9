/**
 * The Video method end to end (issue 22): Debian's Chromium, driven by playwright-core, opens a
 * user's magic link on the hosted page, consents, is shown the server's random head moves, and
 * records from Chromium's fake camera, which plays a y4m file of a generated head making exactly
 * those moves (fixtures/hard/head-turn.ts; the file is written once the moves are on screen,
 * and Chromium reads it when the camera opens). The page redirects to the completion URL; the
 * real analysis on the durable queue then completes the method, having seen the moves asked.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseDocument, analyseFrames, analyseSelfie } from '../../server/analysis/index.js';
import { systemClock } from '../../server/clock.js';
import { VerificationStatus } from '../../server/domain/catalogue.js';
import { sdb } from '../../server/session/tables.js';
import { writeSetting } from '../../server/store/repos/settings-repo.js';
import { insertTemplate } from '../../server/store/repos/templates-repo.js';
import type { VideoMove } from '../../src/api/contract.js';
import { CHROMIUM_PATH, chromiumArgs } from '../helpers/chromium.js';
import { videoTimeline, writeHeadCamera } from '../helpers/fake-media.js';
import { ensureWebBuild, consentedCameraFlowOnPhone, policyErrors, startCustomerSite, type CustomerSite } from '../helpers/hosted-e2e.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createUser, local } from '../server/session/fixtures.js';

const root = resolve(import.meta.dirname, '../..');
const camera = join(root, '.wtr-tmp', 'e2e', 'camera-video.y4m');

let browser: Browser;
let server: TestServer;
let site: CustomerSite;

beforeAll(async () => {
  ensureWebBuild();
  mkdirSync(join(root, '.wtr-tmp', 'e2e'), { recursive: true });
  // Chromium reads the file's size when it lists the camera: the same size as the real one, later.
  await writeHeadCamera(camera, videoTimeline([]));
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: chromiumArgs(camera) });
  // The real clock: the server checks each frame's time against the time passed since the challenge.
  server = await startTestServer({ analysis: { analyseDocument, analyseSelfie, analyseFrames }, clock: systemClock });
  site = await startCustomerSite();
  await writeSetting(server.verity.ctx.db, 'account_name', 'Acme Bank');
  await insertTemplate(server.verity.ctx.db, {
    name: 'tmpl_video',
    label: 'Video',
    methodIds: [5],
    workflowRawIds: [],
    createdAt: server.clock.now().toISOString(),
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await server?.close();
});

describe('Video in Chromium', () => {
  it('hosted page: consent → the moves → a recording from the camera → completion redirect; the analysis completes it', async () => {
    const { id, link } = await createUser(server, {
      email: 'e2e-video@example.com',
      template_id: 'tmpl_video',
      reference_id: 'ref-video',
      completion_url: `${site.url}/done`,
    });
    const { context, page, errors } = await consentedCameraFlowOnPhone(browser, server.url, local(server, link));
    await page.getByRole('heading', { name: 'Record a short video of your face' }).waitFor();
    await page.getByRole('button', { name: 'Show me the moves' }).click();
    // The moves come from the server's challenge: wait for them (allTextContents does not wait).
    await page.locator('verify-step-video ol.moves li').first().waitFor();
    const shown = await page.locator('verify-step-video ol.moves li').allTextContents();
    const moves = shown.map((text): VideoMove => (text.includes('left') ? 'turn_left' : 'turn_right'));
    expect(moves.length).toBeGreaterThanOrEqual(2);
    await writeHeadCamera(camera, videoTimeline(moves));
    await page.getByRole('button', { name: 'Start recording' }).click();
    await page.getByRole('status').filter({ hasText: 'Look straight at the camera.' }).waitFor();
    await page.waitForURL(/\/done\?/, { timeout: 60_000 });
    expect(new URL(page.url()).searchParams.get('reference_id')).toBe('ref-video');

    await server.verity.ctx.queue.whenIdle();
    const row = await server.verity.ctx.db
      .selectFrom('user_verifications')
      .select(['status', 'attributes'])
      .where('user_id', '=', id)
      .where('method_id', '=', 5)
      .executeTakeFirstOrThrow();
    const attributes = JSON.parse(row.attributes) as Record<string, unknown>;
    expect(attributes).toMatchObject({ challenge: moves, moves_seen: moves, moved_as_asked: true, faces_seen: 1, reasons: [] });
    expect(attributes['frames_analysed'] as number).toBeGreaterThanOrEqual(8);
    expect(row.status).toBe(VerificationStatus.complete);
    // The recording is kept for the record, as a WebM by its content.
    const kept = await sdb(server.verity.ctx.db)
      .selectFrom('session_uploads')
      .select(['media_type', 'size'])
      .where('user_id', '=', id)
      .where('step', '=', 'recording')
      .execute();
    expect(kept).toHaveLength(1);
    expect(kept[0]!.media_type).toBe('video/webm');
    expect(policyErrors(errors)).toEqual([]);
    await context.close();
  }, 180_000);
});
