import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/components/verify-flow/verify-flow.js';
import type { VerifyFlow } from '../../../src/components/verify-flow/verify-flow.js';
import { calls, deep, METHODS, session, until } from '../fixtures/double.js';
import { startFlow } from '../fixtures/flow-harness.js';

describe('cross-device hand-off', () => {
  it('shows a QR code and a short link on the desktop, then the phone claims the session and finishes without completing', async () => {
    const { flow, key } = await startFlow({ session: session([METHODS.email()], { handoff_enabled: true }) }, 'verify-step-email');
    const offer = [...flow.shadowRoot!.querySelectorAll('nav button')].find((b) => b.textContent?.trim() === 'Continue on another device') as HTMLButtonElement;
    offer.click();
    const handoff = await until(() => deep(flow, 'verify-handoff'), 3000, 'handoff panel');
    await until(() => handoff.shadowRoot?.querySelector('svg.qr path'), 5000, 'qr code');
    const d = handoff.shadowRoot!.querySelector('svg.qr path')!.getAttribute('d')!;
    expect(d.length).to.be.greaterThan(500);
    expect(handoff.shadowRoot!.querySelector('.link')!.textContent).to.match(/\/l\/abc123$/);
    expect(handoff.shadowRoot!.querySelector('svg.qr')!.getAttribute('role')).to.equal('img');
    await expect(handoff).to.be.accessible();
    expect((await calls(key)).map((c) => c.path)).to.include.members(['/session/handoff', '/session/events']);

    // The phone: the hosted page opened from the QR code passes the token to the flow.
    const phone = await fixture<VerifyFlow>(html`<verify-flow handoff=${`ho-tok-${key}`} auto-start stay></verify-flow>`);
    const send = await until(() => deep<HTMLButtonElement>(phone, 'verify-step-email', 'button'), 5000, 'phone email step');
    send.click();
    const input = await until(() => deep<HTMLInputElement>(phone, 'verify-step-email', 'input#code'), 5000, 'code input');
    input.value = '123456';
    deep<HTMLFormElement>(phone, 'verify-step-email', 'form')!.requestSubmit();
    await until(() => deep(phone, '#result-title')?.textContent === 'All done on this phone', 5000, 'phone done');
    // The desktop completes; the phone never does.
    expect((await calls(key)).some((c) => c.path === '/session/complete')).to.equal(false);
    // The token works once.
    const again = await fixture<VerifyFlow>(html`<verify-flow handoff=${`ho-tok-${key}`} auto-start stay></verify-flow>`);
    await until(() => deep(again, '#failure-title')?.textContent === 'Your session has ended', 5000, 'used token');
  });

  it('does not offer the hand-off when the account disables it', async () => {
    const { flow } = await startFlow({ session: session([METHODS.email()]) }, 'verify-step-email');
    expect([...flow.shadowRoot!.querySelectorAll('nav button')].some((b) => b.textContent?.includes('another device'))).to.equal(false);
  });
});
