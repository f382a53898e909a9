import { expect, oneEvent } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { VerifyCompleteDetail } from '../../../../src/events/events.js';
import { calls, METHODS, session, until } from '../../fixtures/double.js';
import { buttonByText, startFlow, stepText } from '../../fixtures/flow-harness.js';

const TAG = 'verify-step-biometric-id';

/** A fresh virtual platform authenticator (Chromium's DevTools protocol), as the device's own. */
async function device(isUserVerified = true): Promise<void> {
  await executeServerCommand('webauthn', { action: 'add', isUserVerified });
}

async function button(flow: HTMLElement, text: string): Promise<HTMLButtonElement> {
  return until(() => buttonByText(flow as never, TAG, text), 5000, `button "${text}"`);
}

afterEach(async () => {
  await executeServerCommand('webauthn', { action: 'remove' });
});

describe('<verify-step-biometric-id>', () => {
  it('creates a passkey with the device check and completes; a second visit signs in with it', async () => {
    await device();
    const user = `u-${Math.random()}`;
    const first = await startFlow({ session: session([METHODS.biometric_id()]), passkeyUser: user }, TAG);
    const create = await button(first.flow, 'Create a passkey');
    expect(stepText(first.flow, TAG)).to.contain('never leaves the device');
    await expect(first.flow.shadowRoot!.querySelector(TAG)).to.be.accessible();
    const done = oneEvent(first.flow, 'verify-complete');
    create.click();
    expect(((await done) as CustomEvent<VerifyCompleteDetail>).detail.status).to.equal('completed');
    expect(await executeServerCommand('webauthn-credentials')).to.equal(1);
    const paths = (await calls(first.key)).map((c) => `${c.method} ${c.path}`);
    expect(paths).to.include.members(['POST /session/methods/biometric_id/options', 'POST /session/methods/biometric_id/verify']);
    first.flow.remove();

    // The same user, assigned the method again: an assertion by the passkey made above.
    const second = await startFlow({ session: session([METHODS.biometric_id({ ceremony: 'assert' })]), passkeyUser: user }, TAG);
    const use = await button(second.flow, 'Use my passkey');
    await expect(second.flow.shadowRoot!.querySelector(TAG)).to.be.accessible();
    const again = oneEvent(second.flow, 'verify-complete');
    use.click();
    expect(((await again) as CustomEvent<VerifyCompleteDetail>).detail.status).to.equal('completed');
    // No second passkey was made.
    expect(await executeServerCommand('webauthn-credentials')).to.equal(1);
  });

  it('a device that cannot confirm the user gets a clear retry, and nothing is sent or changed', async () => {
    await device(false);
    const { flow, key } = await startFlow({ session: session([METHODS.biometric_id()]) }, TAG);
    (await button(flow, 'Create a passkey')).click();
    await until(() => stepText(flow, TAG).includes('Nothing was changed'), 10_000, 'cancelled message');
    const alert = flow.shadowRoot!.querySelector(TAG)!.shadowRoot!.querySelector('[role="alert"]')!;
    expect(alert.textContent).to.contain('try again when you are ready');
    const paths = (await calls(key)).map((c) => c.path);
    expect(paths).not.to.include('/session/methods/biometric_id/verify');
    // The retry is the same button, enabled and focused.
    const retry = await button(flow, 'Create a passkey');
    expect(retry.disabled).to.equal(false);
    await until(() => flow.shadowRoot!.querySelector(TAG)!.shadowRoot!.activeElement === retry, 3000, 'focus on the retry');
    await expect(flow.shadowRoot!.querySelector(TAG)).to.be.accessible();

    // With a device that can, the retry completes.
    await device(true);
    const done = oneEvent(flow, 'verify-complete');
    retry.click();
    expect(((await done) as CustomEvent<VerifyCompleteDetail>).detail.status).to.equal('completed');
  });

  it('on a page of another host, tries the related origins; refused, says it cannot use a passkey and offers another device', async () => {
    await device();
    const { flow } = await startFlow({ session: session([METHODS.biometric_id({ rp_id: 'verify.example.com' })], { handoff_enabled: true }) }, TAG);
    // Chromium reads the relying party's /.well-known/webauthn; verify.example.com cannot be reached, so
    // this page's origin is not related and the ceremony is refused with a SecurityError.
    (await button(flow, 'Create a passkey')).click();
    await until(() => stepText(flow, TAG).includes('cannot use a passkey'), 15000, 'unsupported message');
    expect(buttonByText(flow as never, TAG, 'Create a passkey')).to.equal(null);
    expect(flow.shadowRoot!.textContent).to.contain('Continue on another device');
    expect(await executeServerCommand('webauthn-credentials')).to.equal(0);
    await expect(flow.shadowRoot!.querySelector(TAG)).to.be.accessible();
  });
});
