import { expect, oneEvent } from '@open-wc/testing';
import type { VerifyCompleteDetail } from '../../../../src/events/events.js';
import { calls, deep, METHODS, session, until } from '../../fixtures/double.js';
import { buttonByText, startFlow, stepText } from '../../fixtures/flow-harness.js';

const TAG = 'verify-step-email';

async function send(flow: HTMLElement): Promise<HTMLInputElement> {
  buttonByText(flow as never, TAG, 'Send code')!.click();
  return until(() => deep<HTMLInputElement>(flow, TAG, 'input#code'), 5000, 'code input');
}

async function submit(flow: HTMLElement, input: HTMLInputElement, code: string): Promise<void> {
  input.value = code;
  deep<HTMLFormElement>(flow, TAG, 'form')!.requestSubmit();
}

describe('<verify-step-email> / <verify-step-phone>', () => {
  it('sends a code, offers one-time-code autofill, and completes with the right code', async () => {
    const { flow, key } = await startFlow({ session: session([METHODS.email()]) }, TAG);
    expect(stepText(flow, TAG)).to.contain('We will send a code to j***@example.com.');
    await expect(deep(flow, TAG)).to.be.accessible();
    const input = await send(flow);
    expect(input.getAttribute('autocomplete')).to.equal('one-time-code');
    expect(input.getAttribute('inputmode')).to.equal('numeric');
    await expect(deep(flow, TAG)).to.be.accessible();
    const completed = oneEvent(flow, 'verify-complete');
    await submit(flow, input, '123456');
    expect(((await completed) as CustomEvent<VerifyCompleteDetail>).detail.status).to.equal('completed');
    const paths = (await calls(key)).map((c) => `${c.method} ${c.path}`);
    expect(paths).to.include.members(['POST /session/methods/email/send', 'POST /session/methods/email/verify']);
  });

  it('refuses a short code on the device without calling the server', async () => {
    const { flow, key } = await startFlow({ session: session([METHODS.email()]) }, TAG);
    const input = await send(flow);
    const before = (await calls(key)).length;
    await submit(flow, input, '12');
    await until(() => stepText(flow, TAG).includes('Enter the 6-digit code.'), 3000, 'length error');
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect((await calls(key)).length).to.equal(before);
  });

  it('counts down tries on wrong codes and asks for a new code after the last one', async () => {
    const { flow } = await startFlow({ session: session([METHODS.email()]) }, TAG);
    const input = await send(flow);
    await submit(flow, input, '000000');
    await until(() => stepText(flow, TAG).includes('That code is not right. 4 tries left.'), 3000, '4 tries left');
    for (let i = 0; i < 4; i++) {
      await submit(flow, deep<HTMLInputElement>(flow, TAG, 'input#code')!, '000000');
      await new Promise((r) => setTimeout(r, 150));
    }
    await until(() => stepText(flow, TAG).includes('Too many wrong tries. Send a new code.'), 3000, 'exceeded');
    expect(deep<HTMLInputElement>(flow, TAG, 'input#code')!.disabled).to.equal(true);
  });

  it('shows the resend countdown and refuses an early resend', async () => {
    const { flow } = await startFlow({ session: session([METHODS.email()]) }, TAG);
    await send(flow);
    const resend = await until(
      () => [...deep(flow, TAG)!.shadowRoot!.querySelectorAll('button')].find((b) => /Send again in \d+ s/.test(b.textContent ?? '')),
      3000,
      'countdown',
    );
    expect(resend.disabled).to.equal(true);
  });

  it('works for SMS with the phone wording, in French', async () => {
    const { flow } = await startFlow({ session: session([METHODS.phone()]) }, 'verify-step-phone', { lang: 'fr' });
    await until(() => stepText(flow, 'verify-step-phone').includes('Nous allons envoyer un code par SMS au +44 ••• ••• 789.'), 3000, 'french text');
    await expect(deep(flow, 'verify-step-phone')).to.be.accessible();
  });

  it('keeps Send disabled while the session says a resend is not yet allowed', async () => {
    const m = METHODS.email();
    if (m.key === 'email') m.needs.resend_available_at = new Date(Date.now() + 60_000).toISOString();
    const { flow } = await startFlow({ session: session([m]) }, TAG);
    // The countdown from the session keeps the send button disabled.
    const sendButton = buttonByText(flow, TAG, 'Send code')!;
    expect(sendButton.disabled).to.equal(true);
  });
});
