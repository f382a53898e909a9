import { expect, oneEvent } from '@open-wc/testing';
import type { VerifyCompleteDetail } from '../../../../src/events/events.js';
import type { VerifyStepVideo } from '../../../../src/steps/video/verify-step-video.component.js';
import { calls, deep, METHODS, session, until } from '../../fixtures/double.js';
import { buttonByText, startFlow, stepText } from '../../fixtures/flow-harness.js';

const TAG = 'verify-step-video';

describe('<verify-step-video>', () => {
  it('shows the moves before the camera starts, records about 5 s from the camera, sends sampled frames and the recording, and completes', async () => {
    const { sendKeys } = await import('@web/test-runner-commands');
    const { flow, key } = await startFlow({ session: session([METHODS.video()]) }, TAG);
    expect(stepText(flow, TAG)).to.contain('record a short video of your face');
    await expect(deep(flow, TAG)).to.be.accessible();
    // Keyboard only: the button takes focus and Enter presses it.
    buttonByText(flow as never, TAG, 'Show me the moves')!.focus();
    await sendKeys({ press: 'Enter' });
    const list = await until(() => deep(flow, TAG, 'ol.moves'), 5000, 'the moves');
    expect([...list.querySelectorAll('li')].map((li) => li.textContent!.trim())).to.deep.equal([
      'Turn your head to your left, then back.',
      'Turn your head to your right, then back.',
    ]);
    // The heading of the moves takes focus, so a screen reader reads them next.
    expect(deep(flow, TAG)!.shadowRoot!.activeElement?.tagName).to.equal('H3');
    expect(deep<HTMLVideoElement>(flow, TAG, 'video')!.srcObject).to.equal(null);
    await expect(deep(flow, TAG)).to.be.accessible();

    const completed = oneEvent(flow, 'verify-complete');
    buttonByText(flow as never, TAG, 'Start recording')!.click();
    const status = await until(() => deep(flow, TAG, '.instruction'), 8000, 'the on-screen guide');
    expect(status.getAttribute('role')).to.equal('status');
    expect(status.textContent!.trim()).to.equal('Look straight at the camera.');
    expect(deep(flow, TAG, 'progress')).to.exist;
    await expect(deep(flow, TAG)).to.be.accessible();
    await until(() => stepText(flow, TAG).includes('Turn your head to your left'), 4000, 'the first move guided');
    expect(((await completed) as CustomEvent<VerifyCompleteDetail>).detail.status).to.equal('completed');

    const log = await calls(key);
    const frames = log.filter((c) => c.path === '/session/methods/video/frames');
    expect(frames.length).to.be.within(8, 12);
    const posts = log.map((c) => c.path).filter((p) => p.startsWith('/session/methods/video/'));
    expect(posts.at(-2)).to.equal('/session/methods/video/recording');
    expect(posts.at(-1)).to.equal('/session/methods/video/submit');
  });

  it('says so when no attempts are left', async () => {
    const { flow } = await startFlow({ session: session([METHODS.video()]) }, TAG);
    const step = deep<VerifyStepVideo>(flow, TAG)!;
    for (let i = 0; i < 4; i++) await step.showMoves();
    const alert = await until(() => deep(flow, TAG, '[role="alert"]'), 5000, 'the alert');
    expect(alert.textContent).to.contain('No more attempts are left for this step.');
    await expect(step).to.be.accessible();
  });
});
