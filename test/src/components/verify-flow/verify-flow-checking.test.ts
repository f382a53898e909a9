import { expect, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { VerifyFlow } from '../../../../src/components/verify-flow/verify-flow.js';
import type { VerifyCompleteDetail, VerifyErrorDetail } from '../../../../src/events/events.js';
import { calls, deep, METHODS, session, until } from '../../fixtures/double.js';
import { startFlow, stepText } from '../../fixtures/flow-harness.js';

const VOICE = 'verify-step-voice';

/** Reads the phrase into the fake microphone with the keyboard and sends it. */
async function recordAndSend(flow: VerifyFlow): Promise<void> {
  deep<HTMLButtonElement>(flow, VOICE, '#voice-phrase')!.click();
  await until(() => deep(flow, VOICE)!.shadowRoot!.activeElement?.id === 'voice-record', 5000, 'focus on Start recording');
  await sendKeys({ press: 'Enter' });
  await until(() => stepText(flow, VOICE).includes('Recording… 2 s'), 8000, 'two seconds recorded');
  await sendKeys({ press: 'Enter' });
}

const button = (flow: HTMLElement, text: string) => [...flow.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent?.trim() === text);

describe('<verify-flow> waits for the checks of what was sent before completing', () => {
  it('one-step voice: shows the refusal that comes after the upload, with its reason and the retry; the retry that passes completes', async () => {
    const { flow } = await startFlow(
      {
        session: session([METHODS.voice()], { handoff_enabled: true }),
        analysis: [{ outcome: 'rejected', afterMs: 1500, reason: 'VOICE_DIGITS_MISMATCH', can_retry: true }],
      },
      VOICE,
    );
    const errors: VerifyErrorDetail[] = [];
    let completed = false;
    flow.addEventListener('verify-error', (e) => errors.push(e.detail));
    flow.addEventListener('verify-complete', () => (completed = true));
    await recordAndSend(flow);

    // Sent: the flow says it is being checked, with the focus on that screen's heading.
    const title = await until(() => deep(flow, '#checking-title'), 5000, 'the checking screen');
    expect(title.textContent).to.equal('Checking what you sent');
    expect(flow.shadowRoot!.activeElement).to.equal(title);
    expect(deep(flow, '.checking [role="status"]')!.textContent).to.contain('keep this page open');
    await expect(flow).to.be.accessible();

    // The analysis refuses it: the reason in the user's words, the retry and the other ways.
    const alert = await until(() => deep(flow, '.checking .refusal[role="alert"]'), 8000, 'the refusal');
    expect(alert.textContent).to.contain('Read a few digits aloud');
    expect(alert.textContent).to.contain('The digits heard were not the ones shown.');
    expect(alert.textContent).not.to.contain('VOICE_');
    expect(deep(flow, '#checking-title')!.textContent).to.equal('A step was not accepted');
    expect(button(flow, 'Continue on another device')).to.not.equal(undefined);
    expect(flow.shadowRoot!.textContent).to.contain('contact the company that sent you this link');
    expect(errors.map((e) => e.code)).to.include('method_rejected');
    expect(completed).to.equal(false);
    expect(flow.phase).to.equal('checking');
    await expect(flow).to.be.accessible();

    // The retry by keyboard leads back to the step; this time the analysis accepts it and the flow completes.
    await until(() => deep(flow, '#checking-title') === flow.shadowRoot!.activeElement, 3000, 'focus on the refusal heading');
    await sendKeys({ press: 'Tab' });
    expect(flow.shadowRoot!.activeElement?.textContent?.trim()).to.equal('Do this step again');
    await sendKeys({ press: 'Enter' });
    await until(() => deep(flow, VOICE, '#voice-phrase'), 5000, 'the voice step again');
    const done = oneEvent(flow, 'verify-complete');
    await recordAndSend(flow);
    await until(() => deep(flow, '#checking-title'), 5000, 'checking again');
    expect(((await done) as CustomEvent<VerifyCompleteDetail>).detail.status).to.equal('completed');
    expect(deep(flow, '#result-title')!.textContent).to.equal('Thank you, you are done');
  });

  it('one-step selfie, back on the page while it is checked: a final refusal says the service will contact them, and nothing completes', async () => {
    const selfie = { ...METHODS.selfie(), status: 'processing' as const };
    const { flow } = await startFlow(
      {
        session: session([selfie], { state: 'ready_to_complete' }),
        analysis: [{ outcome: 'rejected', afterMs: 1500, reason: 'No face was found in the selfie.', can_retry: false }],
      },
      '#checking-title',
    );
    let completed = false;
    flow.addEventListener('verify-complete', () => (completed = true));
    const alert = await until(() => deep(flow, '.checking .refusal[role="alert"]'), 8000, 'the refusal');
    expect(alert.textContent).to.contain('No face was found in the selfie.');
    expect(button(flow, 'Do this step again')).to.equal(undefined);
    expect(flow.shadowRoot!.textContent).to.contain('The service will contact you about this step.');
    await expect(flow).to.be.accessible();
    expect(completed).to.equal(false);
  });

  it('completes once the checks pass, and completes anyway when they take longer than check-wait', async () => {
    const passes = await startFlow(
      { session: session([{ ...METHODS.selfie(), status: 'processing' }], { state: 'ready_to_complete' }), analysis: [{ outcome: 'complete', afterMs: 800 }] },
      '#checking-title',
    );
    await until(() => deep(passes.flow, '#result-title'), 8000, 'done after the checks passed');

    const slow = await startFlow(
      {
        session: session([{ ...METHODS.selfie(), status: 'processing' }], { state: 'ready_to_complete' }),
        analysis: [{ outcome: 'complete', afterMs: 60_000 }],
      },
      '#checking-title',
      { checkWait: 1 },
    );
    expect(slow.flow.phase).to.equal('checking');
    await until(() => deep(slow.flow, '#result-title'), 8000, 'done once the wait ran out');
  });

  it('a refusal that comes after check-wait ran out and the flow completed: the open page says so and offers the retry (issue 20)', async () => {
    const { flow, key } = await startFlow(
      {
        session: session([METHODS.voice()]),
        analysis: [{ outcome: 'rejected', afterMs: 3000, reason: 'VOICE_DIGITS_MISMATCH', can_retry: true }],
      },
      VOICE,
      { checkWait: 1 },
    );
    const errors: VerifyErrorDetail[] = [];
    let completions = 0;
    flow.addEventListener('verify-error', (e) => errors.push(e.detail));
    flow.addEventListener('verify-complete', () => (completions += 1));
    await recordAndSend(flow);

    // The analysis is slower than the flow waits: the flow completes and says so.
    await until(() => deep(flow, '#result-title') && completions === 1, 8000, 'done once the wait ran out');

    // Then the analysis refuses it: the page, still open, tells the user and offers the retry.
    const alert = await until(() => deep(flow, '.checking .refusal[role="alert"]'), 8000, 'the late refusal');
    expect(alert.textContent).to.contain('The digits heard were not the ones shown.');
    expect(deep(flow, '#checking-title')!.textContent).to.equal('A step was not accepted');
    expect(deep(flow, '#result-title')).to.equal(null);
    expect(errors.map((e) => e.code)).to.include('method_rejected');
    expect(flow.phase).to.equal('checking');
    await until(() => deep(flow, '#checking-title') === flow.shadowRoot!.activeElement, 3000, 'focus on the refusal heading');
    await expect(flow).to.be.accessible();

    // The retry leads back to the step; sent again and accepted, the flow completes again.
    button(flow, 'Do this step again')!.click();
    await until(() => deep(flow, VOICE, '#voice-phrase'), 5000, 'the voice step again');
    expect((await calls(key)).some((c) => c.method === 'POST' && c.path === '/session/methods/voice/retry')).to.equal(true);
    await recordAndSend(flow);
    await until(() => deep(flow, '#result-title') && completions === 2, 8000, 'done again');
  });
});
