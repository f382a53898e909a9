import { expect, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { VerifyCompleteDetail } from '../../../../src/events/events.js';
import { deep, METHODS, scenario, session, until } from '../../fixtures/double.js';
import { buttonByText, startFlow, stepText } from '../../fixtures/flow-harness.js';

const TAG = 'verify-step-voice';

interface VoiceReceived {
  phrase_id: string;
  seconds: number;
  rms_dbfs: number;
}

async function received(key: string): Promise<VoiceReceived[]> {
  const response = await fetch(`/__double/log?key=${encodeURIComponent(key)}`);
  return ((await response.json()) as { voice: VoiceReceived[] }).voice;
}

describe('<verify-step-voice>', () => {
  it('shows the phrase digit by digit, records the fake microphone with the keyboard, and sends a 16 kHz WAV', async () => {
    const { flow, key } = await startFlow({ session: session([METHODS.voice()]), voiceDigits: '470193' }, TAG);
    expect(stepText(flow, TAG)).to.contain('not who you are');
    expect(stepText(flow, TAG)).to.contain('3 phrases left.');
    await expect(deep(flow, TAG)).to.be.accessible();

    deep<HTMLButtonElement>(flow, TAG, '#voice-phrase')!.focus();
    await sendKeys({ press: 'Enter' });
    const digits = await until(() => deep(flow, TAG, '.digits'), 5000, 'the phrase');
    expect([...digits.querySelectorAll('span[aria-hidden="true"]')].map((s) => s.textContent)).to.deep.equal(['4', '7', '0', '1', '9', '3']);
    // A screen reader reads the digits one by one, not as a number.
    expect(deep(flow, TAG, '#voice-digits-text')!.textContent).to.equal('4 7 0 1 9 3');
    await until(() => deep(flow, TAG)!.shadowRoot!.activeElement?.id === 'voice-record', 3000, 'focus on Start recording');
    await expect(deep(flow, TAG)).to.be.accessible();

    await sendKeys({ press: 'Enter' });
    await until(() => stepText(flow, TAG).includes('Recording…'), 5000, 'recording');
    expect(deep(flow, TAG, '.recording')!.getAttribute('role')).to.equal('status');
    await until(() => deep(flow, TAG)!.shadowRoot!.activeElement?.id === 'voice-stop', 3000, 'focus on Stop and send');
    await until(() => stepText(flow, TAG).includes('Recording… 2 s'), 5000, 'two seconds recorded');
    const completed = oneEvent(flow, 'verify-complete');
    await sendKeys({ press: 'Enter' });
    expect(((await completed) as CustomEvent<VerifyCompleteDetail>).detail.status).to.equal('completed');

    const [audio] = await received(key);
    expect(audio!.phrase_id).to.equal('vph-2');
    expect(audio!.seconds).to.be.within(1.8, 4);
    // The fake microphone plays sound: the WAV carries it, not silence.
    expect(audio!.rms_dbfs).to.be.greaterThan(-50);
  });

  it('has no phrase to give when the attempts are used up', async () => {
    const { flow } = await startFlow({ session: session([METHODS.voice(0)]) }, TAG);
    expect(deep<HTMLButtonElement>(flow, TAG, '#voice-phrase')!.disabled).to.equal(true);
    expect(stepText(flow, TAG)).to.contain('0 phrases left.');
    await expect(deep(flow, TAG)).to.be.accessible();
  });

  it("explains a rejected recording in the user's words and offers the retry", async () => {
    const rejected = { ...METHODS.voice(2), status: 'rejected' as const, can_retry: true, reason: 'VOICE_DIGITS_MISMATCH' };
    const { link } = await scenario({ session: session([rejected]) });
    const { fixture, html } = await import('@open-wc/testing');
    const flow = await fixture(html`<verify-flow .link=${link} stay lang="en"></verify-flow>`);
    (await until(() => deep<HTMLButtonElement>(flow, '.intro button'), 5000, 'start button')).click();
    const notice = await until(() => deep(flow, '.notice[role="alert"]'), 5000, 'the refusal');
    expect(notice.textContent).to.contain('The digits heard were not the ones shown.');
    expect(notice.textContent).not.to.contain('VOICE_');
    expect(
      buttonByText(flow as never, 'verify-flow', 'Try this step again') ??
        [...flow.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Try this step again'),
    ).to.not.equal(undefined);
  });

  it('speaks Arabic, right to left, with the phrase still read left to right as numbers are', async () => {
    const { flow } = await startFlow({ session: session([METHODS.voice()]), voiceDigits: '123456' }, TAG, { lang: 'ar' });
    await until(() => stepText(flow, TAG).includes('اقرأها بصوت عالٍ'), 5000, 'the Arabic text');
    expect(getComputedStyle(deep(flow, TAG)!).direction).to.equal('rtl');
    deep<HTMLButtonElement>(flow, TAG, '#voice-phrase')!.click();
    const digits = await until(() => deep(flow, TAG, '.digits'), 5000, 'the phrase');
    const [first, last] = [digits.querySelector('span')!, digits.querySelectorAll('span[aria-hidden="true"]')[5]!];
    expect(first.getBoundingClientRect().left).to.be.lessThan(last.getBoundingClientRect().left);
    await expect(deep(flow, TAG)).to.be.accessible();
  });
});
