/**
 * Steps of the end-user flow as a user does them in the browser, shared by the end-to-end tests:
 * a code from the outbox, the knowledge questions, a document uploaded from a file, and the
 * Live Video agent on the dashboard. Each is scoped to its step element, so it works whatever
 * else is on the page.
 */
import { expect } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { AdminClient } from '../server/http/admin/admin-client.js';
import { KNOWLEDGE_ANSWERS, latestCode } from '../server/session/fixtures.js';
import { items, type TestServer } from './server.js';

/** The E-mail or Phone step: sends a code and enters the one that reached `to` (the outbox). */
export async function confirmCode(page: Page, server: TestServer, to: string, step: 'email' | 'phone'): Promise<void> {
  const element = page.locator(`verify-step-${step}`);
  await element.getByRole('button', { name: 'Send code' }).click();
  await element.getByLabel('Code').fill(await latestCode(server, to));
  await element.getByRole('button', { name: 'Confirm' }).click();
}

/** The Knowledge step with `configureKnowledge`'s questions: answers those asked (a random subset), then submits. */
export async function answerKnowledge(page: Page): Promise<void> {
  const step = page.locator('verify-step-knowledge');
  await step.getByRole('button', { name: 'Submit answers' }).waitFor();
  for (const [id, answer] of Object.entries(KNOWLEDGE_ANSWERS)) {
    const field = step.locator(`input[name="${id}"]`);
    if ((await field.count()) === 0) continue;
    if ((await field.first().getAttribute('type')) === 'radio') await step.locator(`input[name="${id}"][value="${answer}"]`).check();
    else await field.fill(answer);
  }
  await step.getByRole('button', { name: 'Submit answers' }).click();
}

/** The Document step (consent given): the first document type, a file uploaded, reviewed and sent. */
export async function uploadDocument(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const step = page.locator('verify-step-document');
  await page.getByRole('heading', { name: 'Photograph your ID document' }).waitFor();
  const radio = step.locator('input[type=radio]');
  if ((await radio.count()) > 0) await radio.first().check();
  await step.getByRole('button', { name: 'Upload a file', exact: true }).click();
  await step.locator('input[type=file]').setInputFiles(file);
  await step.getByRole('button', { name: 'Use this and submit' }).click();
}

/**
 * The Bank deposits paid by hand, as an operator does from the dashboard's payouts: the amounts of
 * the one pending payout (to `iban`), then "mark paid". Answers the amounts as the operator read them.
 */
export async function operatorPaysDeposits(server: TestServer, admin: AdminClient, iban: string): Promise<[string, string]> {
  await server.verity.ctx.queue.whenIdle();
  const [payout] = items((await admin.request('GET', '/admin/api/bank-payouts?status=pending')).body.data);
  expect(payout?.pay?.iban).toBe(iban);
  const amounts = items(payout?.pay?.amounts).map(String) as [string, string];
  expect((await admin.request('POST', `/admin/api/bank-payouts/${String(payout!.id)}/paid`)).status).toBe(200);
  return amounts;
}

/** An operator of the dashboard, in a context of its own. */
export interface Agent {
  context: BrowserContext;
  page: Page;
}

/** The agent signed in to the dashboard at `base` (the server's base URL), on the Live video page. */
export async function agentOnLiveVideo(browser: Browser, base: string, admin: { email: string; password: string }): Promise<Agent> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
  const page = await context.newPage();
  await page.goto(`${base}/admin/live-video`);
  await page.getByLabel('E-mail').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Live video' }).waitFor();
  return { context, page };
}

/** Whether the video element has drawn frames of a remote stream. */
function playing(video: Locator): Promise<boolean> {
  return video.evaluate((v: HTMLVideoElement) => v.srcObject instanceof MediaStream && v.videoWidth > 0 && v.currentTime > 0);
}

/** The agent takes the call of `name` (as the queue shows it); both sides see the other's video. */
export async function takeCall(agent: Page, user: Page, name: string): Promise<void> {
  await agent.getByRole('button', { name: `Take call with ${name}` }).click();
  await expect.poll(() => playing(agent.locator('admin-live-video video.remote')), { timeout: 15_000 }).toBe(true);
  await expect.poll(() => playing(user.locator('verify-step-live-video video.remote')), { timeout: 15_000 }).toBe(true);
  await user.getByText('You are in the call with an agent.').waitFor();
}
