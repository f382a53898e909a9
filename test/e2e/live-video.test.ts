/**
 * Live Video end to end (issue 22): two headless Chromium contexts with the fake camera and
 * microphone, one the user on the hosted page, one the agent in the dashboard. The call connects
 * (both videos play the other side's frames), the agent takes a still and approves, and the
 * user's flow follows the completion redirect; then an agent who rejects, a user who hangs up, and
 * (on a second server with a 10-second limit) a call that reaches its time limit.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerity, type Verity } from '../../server/app.js';
import { hashPassword } from '../../server/auth/passwords.js';
import { loadConfig } from '../../server/config.js';
import { createApiKey } from '../../server/store/repos/api-keys-repo.js';
import { insertTemplate } from '../../server/store/repos/templates-repo.js';
import { CHROMIUM_PATH } from '../helpers/chromium.js';
import { freePort } from '../server/scale/processes.js';

const root = resolve(import.meta.dirname, '../..');
const ADMIN = { email: 'agent@example.com', password: 'a very long agent passphrase' };

/** One Verity at its own base URL, with an agent account, the Live Video template and an API key. */
interface LiveVideoServer {
  verity: Verity;
  base: string;
  apiKey: string;
  dataDir: string;
}

let browser: Browser;
let main: LiveVideoServer;
let site: Server;
let siteUrl: string;

async function startLiveVideoServer(env: Record<string, string> = {}): Promise<LiveVideoServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'verity-e2e-live-video-'));
  const port = await freePort();
  // The dashboard's socket must come from the base URL's origin: the server is at its own base URL.
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    VERITY_DATA_DIR: dataDir,
    PORT: String(port),
    VERITY_BASE_URL: base,
    VERITY_SECRET: 'e2e-secret-'.padEnd(48, 'z'),
    VERITY_LOG_LEVEL: 'silent',
    ...env,
  });
  const verity = await buildVerity({ config, logger: false });
  await verity.app.listen({ port, host: '127.0.0.1' });
  await verity.startWorkers();
  const now = new Date();
  await verity.ctx.db
    .insertInto('admins')
    .values({ email: ADMIN.email, password_hash: await hashPassword(ADMIN.password), created_at: now.toISOString() })
    .execute();
  await insertTemplate(verity.ctx.db, { name: 'tmpl_live', label: 'Live video', methodIds: [12], workflowRawIds: [], createdAt: now.toISOString() });
  const apiKey = (await createApiKey(verity.ctx.db, { name: 'e2e', ratePerSecond: 1000, ratePerMinute: 100_000, now })).key;
  return { verity, base, apiKey, dataDir };
}

async function stopLiveVideoServer(server: LiveVideoServer | undefined): Promise<void> {
  await server?.verity.close();
  if (server) await rm(server.dataDir, { recursive: true, force: true });
}

beforeAll(async () => {
  const built = spawnSync(process.execPath, ['scripts/ensure-web-build.mjs'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) throw new Error('building dist/web failed');
  main = await startLiveVideoServer();
  site = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>done</title><h1>Thanks</h1>'));
  await new Promise<void>((ok) => site.listen(0, '127.0.0.1', ok));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((ok) => site?.close(ok));
  await stopLiveVideoServer(main);
});

async function api(path: string, body?: unknown, server: LiveVideoServer = main): Promise<Record<string, unknown>> {
  const res = await fetch(server.base + path, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${server.apiKey}`, 'user-agent': 'e2e', 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as Record<string, unknown>;
}

/** A user with Live Video on the hosted page, consented and in the queue. */
async function userInQueue(name: string, server: LiveVideoServer = main): Promise<{ id: number; context: BrowserContext; page: Page }> {
  const created = await api(
    '/api/users',
    {
      email: `${name}@example.com`,
      first_name: name,
      last_name: 'Caller',
      template_id: 'tmpl_live',
      completion_url: `${siteUrl}/done`,
    },
    server,
  );
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB' });
  const page = await context.newPage();
  await page.goto(String(created.magic_link));
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Agree and continue' }).click();
  await page.getByRole('button', { name: 'Join the video call' }).click();
  await page.getByText('You are number 1 in the queue.').waitFor();
  return { id: Number(created.id), context, page };
}

/** The agent signed in, on the Live video page. */
async function agentOnQueue(server: LiveVideoServer = main): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
  const page = await context.newPage();
  await page.goto(`${server.base}/admin/live-video`);
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Live video' }).waitFor();
  return { context, page };
}

/** Whether the video element has drawn frames of a remote stream. */
const playing = (page: Page, selector: string) =>
  page.locator(selector).evaluate((v: HTMLVideoElement) => v.srcObject instanceof MediaStream && v.videoWidth > 0 && v.currentTime > 0);

async function takeCall(agent: Page, user: Page, name: string): Promise<void> {
  await agent.getByRole('button', { name: `Take call with ${name} Caller` }).click();
  await expect.poll(() => playing(agent, 'admin-live-video video.remote'), { timeout: 15_000 }).toBe(true);
  await expect.poll(() => playing(user, 'verify-step-live-video video.remote'), { timeout: 15_000 }).toBe(true);
  await user.getByText('You are in the call with an agent.').waitFor();
}

async function status(id: number, server: LiveVideoServer = main): Promise<unknown> {
  const user = (await api(`/api/users/${id}`, undefined, server)).data as { verifications: { status: { friendly: string } }[] };
  return user.verifications[0]?.status.friendly;
}

describe('Live Video in two Chromium contexts', () => {
  it('connects the call, takes a still, approves, and the user is redirected to the completion URL', async () => {
    const agent = await agentOnQueue();
    const user = await userInQueue('Ada');
    await takeCall(agent.page, user.page, 'Ada');
    expect(await status(user.id)).toBe('Processing');
    await agent.page.getByRole('button', { name: 'Take a still' }).click();
    await agent.page.getByRole('img', { name: 'Still 1' }).waitFor();
    await agent.page.getByRole('button', { name: 'Record the decision' }).click();
    await user.page.waitForURL(/\/done/, { timeout: 20_000 });
    expect(await status(user.id)).toBe('Complete');
    await Promise.all([agent.context.close(), user.context.close()]);
  }, 90_000);

  it('an agent who rejects with a reason: the user sees the step refused', async () => {
    const agent = await agentOnQueue();
    const user = await userInQueue('Bob');
    await takeCall(agent.page, user.page, 'Bob');
    await agent.page.getByLabel('Reject').check();
    await agent.page.getByLabel(/Reason/).fill('The face does not match the document.');
    await agent.page.getByRole('button', { name: 'Record the decision' }).click();
    await user.page.getByText('The face does not match the document.').waitFor({ timeout: 15_000 });
    expect(await status(user.id)).toBe('Rejected');
    await Promise.all([agent.context.close(), user.context.close()]);
  }, 90_000);

  it('a user who hangs up: the agent is told, and the step is open to join again', async () => {
    const agent = await agentOnQueue();
    const user = await userInQueue('Cy');
    await takeCall(agent.page, user.page, 'Cy');
    await user.page.getByRole('button', { name: 'Hang up' }).click();
    await user.page.getByText('You left the call.').waitFor();
    await agent.page.getByText('The user left the call.').waitFor();
    // Assigned again (the API's word for it is Pending).
    await expect.poll(() => status(user.id)).toBe('Pending');
    await user.page.getByRole('button', { name: 'Join again' }).click();
    await user.page.getByText('You are number 1 in the queue.').waitFor();
    await agent.page.getByRole('button', { name: 'Take call with Cy Caller' }).waitFor();
    await Promise.all([agent.context.close(), user.context.close()]);
  }, 90_000);
});

describe('a call that reaches its time limit', () => {
  const LIMIT_SECONDS = 10;
  let short: LiveVideoServer | undefined;
  afterAll(() => stopLiveVideoServer(short));

  it('counts down on both sides, ends for both at the limit with nothing decided, and the user can join again', async () => {
    short = await startLiveVideoServer({ VERITY_LIVE_VIDEO_MAX_CALL_SECONDS: String(LIMIT_SECONDS) });
    const agent = await agentOnQueue(short);
    const user = await userInQueue('Dee', short);
    await agent.page.getByRole('button', { name: 'Take call with Dee Caller' }).click();
    // The user's countdown starts from the server's seconds left (at most the limit).
    const timer = user.page.getByRole('timer', { name: 'Time left in the call' });
    await timer.waitFor();
    expect(await timer.textContent()).toMatch(/0:(0\d|10)/);
    const agentTimer = agent.page.getByRole('timer', { name: 'Time left in the call' });
    expect(await agentTimer.textContent()).toMatch(/0:(0\d|10)/);
    await user.page.getByText(/reached its time limit before the agent decided/).waitFor({ timeout: LIMIT_SECONDS * 1000 + 15_000 });
    await agent.page.getByText('The call reached its time limit before a decision.', { exact: false }).waitFor();
    await timer.waitFor({ state: 'hidden' });
    await agentTimer.waitFor({ state: 'hidden' });
    // Nothing was decided: the step is the user's again (the API says Pending), and they can rejoin.
    await expect.poll(() => status(user.id, short)).toBe('Pending');
    await user.page.getByRole('button', { name: 'Join again' }).click();
    await user.page.getByText('You are number 1 in the queue.').waitFor();
    await Promise.all([agent.context.close(), user.context.close()]);
  }, 90_000);
});
