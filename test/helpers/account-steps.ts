/**
 * The account steps as a user does them in the browser, shared by the end-to-end tests: an
 * authenticator app set up from the key the Two-Step step shows, a sign-in at the OpenID Connect
 * provider in the window a step opens, and the Payment Account's e-mail code and sign-in.
 */
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { latestCode } from '../server/session/fixtures.js';
import type { TestServer } from './server.js';

/** The Two-Step step's labels, in the page's language. */
export interface TwoStepLabels {
  setUp: string;
  code: string;
  confirm: string;
  saved: string;
}

export const TWO_STEP_EN: TwoStepLabels = { setUp: 'Set up an authenticator app', code: 'Code from the app', confirm: 'Confirm', saved: 'I have saved them' };

/**
 * Sets up the app on `page` from the key it shows (the code computed as an authenticator app
 * would, at the server's time), confirms a code and saves the recovery codes; returns them.
 */
export async function setUpAuthenticator(page: Page, server: TestServer, labels: TwoStepLabels = TWO_STEP_EN): Promise<string[]> {
  await page.getByRole('button', { name: labels.setUp }).click();
  await page.getByRole('img', { name: /QR/ }).waitFor();
  const key = (await page.locator('verify-step-two-step .secret').textContent())!.replace(/\s/g, '');
  const code = new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 }).generate({ timestamp: server.clock.now().getTime() });
  await page.getByLabel(labels.code).fill(code);
  await page.getByRole('button', { name: labels.confirm }).click();
  // The codes come with the server's answer to the confirmation (allTextContents does not wait).
  await page.locator('verify-step-two-step ol.codes li').first().waitFor();
  const codes = await page.locator('verify-step-two-step ol.codes li').allTextContents();
  await page.getByRole('button', { name: labels.saved }).click();
  return codes;
}

/**
 * Presses the step's sign-in button and signs in as `account` in the window it opens (the
 * provider's own login and consent pages); `beforeLogin` runs while that window waits.
 */
export async function signInAtProvider(page: Page, button: string, account: string, beforeLogin?: () => Promise<void>): Promise<void> {
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: button }).click()]);
  await popup.locator('input[name="login"]').waitFor({ timeout: 30_000 });
  await beforeLogin?.();
  await popup.locator('input[name="login"]').fill(account);
  await popup.locator('input[name="password"]').fill('any');
  await popup.locator('button[type="submit"]').click();
  // Consent, then the provider sends the window to Verity's callback, whose page closes it.
  // Waited for before the click: on a quick machine the window may close before the click returns.
  const closed = popup.waitForEvent('close', { timeout: 30_000 });
  await popup.locator('button[autofocus]').click();
  await closed;
}

/** The Payment Account step's labels. */
export interface PaymentLabels {
  email: string;
  send: string;
  code: string;
  confirm: string;
  signIn: string;
}

export const PAYMENT_EN: PaymentLabels = {
  email: 'Payment account e-mail',
  send: 'Send code',
  code: 'Code',
  confirm: 'Confirm',
  signIn: 'Continue with PayProvider',
};

/**
 * The Payment Account step: the account's e-mail confirmed by the code in the outbox, then a
 * sign-in at the payment provider as `account`. `shot` is called at each screen worth looking at.
 */
export async function confirmPaymentAccount(
  page: Page,
  server: TestServer,
  options: { email: string; account: string; labels?: PaymentLabels; shot?: (name: string) => Promise<void> },
): Promise<void> {
  const labels = options.labels ?? PAYMENT_EN;
  await page.getByLabel(labels.email).fill(options.email);
  await page.getByRole('button', { name: labels.send }).click();
  await page.getByLabel(labels.code).fill(await latestCode(server, options.email));
  await options.shot?.('code');
  await page.getByRole('button', { name: labels.confirm }).click();
  await page.getByRole('button', { name: labels.signIn }).waitFor();
  await options.shot?.('sign-in');
  await signInAtProvider(page, labels.signIn, options.account, () => options.shot?.('waiting') ?? Promise.resolve());
}
