/**
 * The Video method end to end (issue 22): Debian's Chromium, driven by playwright-core, opens a
 * user's magic link on the hosted page, consents, is shown the server's random head moves, and
 * records from Chromium's fake camera, which plays a y4m file of a generated head making exactly
 * those moves (fixtures/hard/head-turn.ts; the file is written once the moves are on screen,
 * and Chromium reads it when the camera opens). The page redirects to the completion URL; the
 * real analysis on the durable queue then completes the method, having seen the moves asked.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseDocument, analyseFrames, analyseSelfie } from '../../server/analysis/index.js';
import { systemClock } from '../../server/clock.js';
import { VerificationStatus } from '../../server/domain/catalogue.js';
import { sdb } from '../../server/session/tables.js';
import { writeSetting } from '../../server/store/repos/settings-repo.js';
import { insertTemplate } from '../../server/store/repos/templates-repo.js';
import type { VideoMove } from '../../src/api/contract.js';
import { headFrame } from '../fixtures/video.js';
import { CHROMIUM_PATH, chromiumArgs } from '../helpers/chromium.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createUser, local } from '../server/session/fixtures.js';
// @ts-expect-error -- plain JS fixture shared with the web tests
import { rgbToI420 } from '../src/fixtures/node/make-fake-cameras.mjs';

const root = resolve(import.meta.dirname, '../..');
const camera = join(root, '.wtr-tmp', 'e2e', 'camera-video.y4m');
/** The demo face whose generated turns read clearly both ways. */
const FACE = 3;
const FPS = 10;

function ensureWebBuild(): void {
  const result = spawnSync(process.execPath, ['scripts/ensure-web-build.mjs'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error('building dist/web failed');
}

/**
 * The camera's yaw per frame at {@link FPS}: straight for 1 s (the widget asks for a straight
 * look first), each move held at 38° for 0.6 s (longer than the widget's ~430 ms between
 * sampled frames), then straight to the end of 8 s.
 */
function timeline(moves: readonly VideoMove[]): number[] {
  const yaws = Array<number>(10).fill(0);
  for (const move of moves) {
    const s = move === 'turn_left' ? 1 : -1;
    yaws.push(20 * s, ...Array<number>(6).fill(38 * s), 20 * s, 0, 0);
  }
  while (yaws.length < 8 * FPS) yaws.push(0);
  return yaws;
}

/** Writes the fake camera's y4m file: the head making `moves` (straight throughout when none). */
async function writeCamera(moves: readonly VideoMove[]): Promise<void> {
  const frames = new Map<number, Buffer>();
  let size = { width: 0, height: 0 };
  const parts: Buffer[] = [];
  for (const yaw of timeline(moves)) {
    if (!frames.has(yaw)) {
      const { data, info } = await sharp(await headFrame(FACE, yaw))
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      size = { width: info.width, height: info.height };
      frames.set(yaw, Buffer.from(rgbToI420(data, info.width, info.height) as Uint8Array));
    }
    parts.push(Buffer.from('FRAME\n'), frames.get(yaw)!);
  }
  const header = Buffer.from(`YUV4MPEG2 W${size.width} H${size.height} F${FPS}:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(camera, Buffer.concat([header, ...parts]));
}

let browser: Browser;
let server: TestServer;
let site: Server;
let siteUrl: string;

beforeAll(async () => {
  ensureWebBuild();
  mkdirSync(join(root, '.wtr-tmp', 'e2e'), { recursive: true });
  // Chromium reads the file's size when it lists the camera: the same size as the real one, later.
  await writeCamera([]);
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: chromiumArgs(camera) });
  // The real clock: the server checks each frame's time against the time passed since the challenge.
  server = await startTestServer({ analysis: { analyseDocument, analyseSelfie, analyseFrames }, clock: systemClock });
  site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>done</title><h1>Thanks</h1>'));
  await new Promise<void>((ok) => site.listen(0, '127.0.0.1', ok));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
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
  await new Promise((ok) => site?.close(ok));
  await server?.close();
});

describe('Video in Chromium', () => {
  it('hosted page: consent → the moves → a recording from the camera → completion redirect; the analysis completes it', async () => {
    const { id, link } = await createUser(server, {
      email: 'e2e-video@example.com',
      template_id: 'tmpl_video',
      reference_id: 'ref-video',
      completion_url: `${siteUrl}/done`,
    });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB', isMobile: true, hasTouch: true });
    await context.grantPermissions(['camera'], { origin: server.url });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(local(server, link));
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByRole('heading', { name: 'Before we use your camera' }).waitFor();
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Agree and continue' }).click();
    await page.getByRole('heading', { name: 'Record a short video of your face' }).waitFor();
    await page.getByRole('button', { name: 'Show me the moves' }).click();
    // The moves come from the server's challenge: wait for them (allTextContents does not wait).
    await page.locator('verify-step-video ol.moves li').first().waitFor();
    const shown = await page.locator('verify-step-video ol.moves li').allTextContents();
    const moves = shown.map((text): VideoMove => (text.includes('left') ? 'turn_left' : 'turn_right'));
    expect(moves.length).toBeGreaterThanOrEqual(2);
    await writeCamera(moves);
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
    expect(errors.filter((e) => /Content Security Policy|Refused/.test(e))).toEqual([]);
    await context.close();
  }, 180_000);
});
