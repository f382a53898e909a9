import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../../../src/components/verify-flow/verify-flow.js';
import type { VerifyFlow } from '../../../../src/components/verify-flow/verify-flow.js';
import { calls, deep, METHODS, session, until } from '../../fixtures/double.js';
import { startFlow } from '../../fixtures/flow-harness.js';

describe('cross-device hand-off', () => {
  it('shows a QR code and a short link; the phone claims the session, and the desktop follows live and completes when the phone is done', async () => {
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

    // The desktop follows live and finishes when the phone does.
    const desktopDone = oneEvent(flow, 'verify-complete');
    // The phone: the hosted page opened from the QR code passes the token to the flow.
    const phone = await fixture<VerifyFlow>(html`<verify-flow handoff=${`ho-tok-${key}`} auto-start stay></verify-flow>`);
    const send = await until(() => deep<HTMLButtonElement>(phone, 'verify-step-email', 'button'), 5000, 'phone email step');
    send.click();
    const input = await until(() => deep<HTMLInputElement>(phone, 'verify-step-email', 'input#code'), 5000, 'code input');
    input.value = '123456';
    deep<HTMLFormElement>(phone, 'verify-step-email', 'form')!.requestSubmit();
    await until(() => deep(phone, '#result-title')?.textContent === 'All done on this phone', 5000, 'phone done');
    // The desktop completes (once); the phone never calls complete itself.
    expect(((await desktopDone) as CustomEvent<{ status: string }>).detail.status).to.equal('completed');
    await until(() => deep(flow, '#result-title'), 5000, 'desktop result');
    const completes = (await calls(key)).filter((c) => c.path === '/session/complete');
    expect(completes).to.have.length(1);
    // The token works once.
    const again = await fixture<VerifyFlow>(html`<verify-flow handoff=${`ho-tok-${key}`} auto-start stay></verify-flow>`);
    await until(() => deep(again, '#failure-title')?.textContent === 'Your session has ended', 5000, 'used token');
  });

  it('does not offer the hand-off when the account disables it', async () => {
    const { flow } = await startFlow({ session: session([METHODS.email()]) }, 'verify-step-email');
    expect([...flow.shadowRoot!.querySelectorAll('nav button')].some((b) => b.textContent?.includes('another device'))).to.equal(false);
  });
});
