// Runs in its own Chromium whose fake camera plays one face cropped from a demo photo of the
// @vladmandic/face-api package (see web-test-runner.config.mjs).
import { expect, oneEvent } from '@open-wc/testing';
import { setUserAgent } from '@web/test-runner-commands';
import type { MethodView, MethodViewOf } from '../../../src/api/contract.js';
import type { VerifyFlow } from '../../../src/components/verify-flow/verify-flow.js';
import type { VerifyStepSelfie } from '../../../src/steps/selfie/verify-step-selfie.component.js';
import { calls, deep, METHODS, session, until } from '../fixtures/double.js';
import { buttonByText, flowButtonByText, startFlow, stepText } from '../fixtures/flow-harness.js';

describe('<verify-step-selfie> on the fake camera (real face detection)', () => {
  it('detects the face, takes the straight-look frame with its evidence, and submits', async function () {
    this.timeout(90_000);
    const { flow, key } = await startFlow({ session: session([METHODS.selfie()]) }, 'verify-step-selfie');
    await expect(deep(flow, 'verify-step-selfie')).to.be.accessible();
    const completed = oneEvent(flow, 'verify-complete');
    buttonByText(flow, 'verify-step-selfie', 'Start the camera')!.click();
    await completed;
    const log = await calls(key);
    const frame = log.find((c) => c.path === '/session/methods/selfie/frames');
    expect(frame, 'a frame was uploaded').to.not.equal(undefined);
    expect(log.some((c) => c.path === '/session/methods/selfie/submit')).to.equal(true);
  });

  it('says in words when the frame budget is spent (429), not the HTTP status text', async function () {
    this.timeout(90_000);
    const { flow } = await startFlow({ session: session([METHODS.selfie()]), faceFramesBudget: 0 }, 'verify-step-selfie');
    buttonByText(flow, 'verify-step-selfie', 'Start the camera')!.click();
    await until(() => stepText(flow, 'verify-step-selfie').includes('Too many pictures were sent in a short time.'), 60_000, 'the budget message');
    expect(stepText(flow, 'verify-step-selfie')).to.not.contain('Too Many Requests');
    await expect(deep(flow, 'verify-step-selfie')).to.be.accessible();
  });

  it('asks for the moves in order, shows which move, and waits for a turn a still picture cannot make', async function () {
    this.timeout(90_000);
    const { flow, key } = await startFlow({ session: session([METHODS.liveness()]), challenge: ['look_straight', 'turn_left'] }, 'verify-step-liveness');
    buttonByText(flow, 'verify-step-liveness', 'Start the camera')!.click();
    await until(() => stepText(flow, 'verify-step-liveness').includes('Slowly turn your head to your left.'), 30_000, 'second move');
    expect(stepText(flow, 'verify-step-liveness')).to.contain('Move 2 of 2');
    const step = deep<VerifyStepSelfie>(flow, 'verify-step-liveness')!;
    await new Promise((r) => setTimeout(r, 1500));
    // Still on the turn: the same still face never turns.
    expect(stepText(flow, 'verify-step-liveness')).to.contain('Slowly turn your head to your left.');
    // The straight-look frame uploads in the background: wait for it instead of racing it.
    const uploaded = async () => (await calls(key)).filter((c) => c.path === '/session/methods/liveness/frames');
    for (const t0 = performance.now(); (await uploaded()).length === 0 && performance.now() - t0 < 15_000;) await new Promise((r) => setTimeout(r, 200));
    expect(await uploaded()).to.have.length(1);
    // The time itself is measured by bench/widget.ts, not asserted here (shared, noisy machines).
    expect(step.cameraState.firstFrameMs).to.be.a('number').and.greaterThan(0);
    expect(step.detectionTimes.length).to.be.greaterThan(5);
    await expect(step).to.be.accessible();
  });

  it('after three timed-out attempts on a computer: help for the moves and the webcam, the phone, and the last try to a person with its dense frames', async function () {
    this.timeout(120_000);
    const { flow, key } = await startFlow(
      // The account gives each move 2 s (the challenge's move_ms), far below the step's own 30 s.
      { session: session([METHODS.liveness()], { handoff_enabled: true }), challenge: ['look_straight', 'turn_left'], faceAttemptsUsed: 2, moveMs: 2_000 },
      'verify-step-liveness',
    );
    const step = deep<VerifyStepSelfie>(flow, 'verify-step-liveness')!;
    expect(flowButtonByText(flow, 'Continue on another device'), "before the help: the flow's link").to.not.equal(null);
    // The still face never turns: each attempt times out on the turn, after the account's time.
    buttonByText(flow, 'verify-step-liveness', 'Start the camera')!.click();
    await until(() => stepText(flow, 'verify-step-liveness').includes('This did not work three times.'), 60_000, 'help after the third attempt');
    const text = stepText(flow, 'verify-step-liveness');
    // The cause: the moves were not seen on the device (nothing was refused).
    expect(text).to.contain('the camera did not see the moves before the time ran out');
    expect(text).to.not.contain('refused');
    expect(text).to.contain('Turn your head slowly');
    // A desktop Chromium: the webcam, not a phone held in the hand.
    expect(text).to.contain('Sit facing your computer’s camera');
    expect(text).to.not.contain('Hold the phone');
    expect(buttonByText(flow, 'verify-step-liveness', 'Use my phone instead'), 'the hand-off is offered').to.not.equal(null);
    await flow.updateComplete;
    expect(flowButtonByText(flow, 'Continue on another device'), 'one way to the hand-off, not two').to.equal(null);
    await expect(step).to.be.accessible();

    const completed = oneEvent(flow, 'verify-complete');
    buttonByText(flow, 'verify-step-liveness', 'Try once more (a person will check it)')!.click();
    await completed;
    const log = await calls(key);
    const challenges = log.filter((c) => c.path === '/session/methods/liveness/challenge');
    expect(challenges, 'attempts 3 and 4, no more').to.have.length(2);
    expect(log.some((c) => c.path === '/session/methods/liveness/submit')).to.equal(true);
    // The last try sent its straight look and the frames of the unfinished turn.
    const lastChallenge = log.lastIndexOf(challenges[1]!);
    const frames = log.slice(lastChallenge).filter((c) => c.path === '/session/methods/liveness/frames');
    expect(frames.length).to.be.greaterThan(2);
  });

  it('after three refused captures on a phone: help for the refusal and the phone, one hand-off, and its try goes to a person', async function () {
    this.timeout(120_000);
    // The server refused three captures (the user completed the moves; the checks said no: not a
    // live face) and the user asked to do the step again: no attempt is left before the last try.
    const liveness: MethodView = {
      ...(METHODS.liveness() as MethodViewOf<'liveness'>),
      needs: { active_liveness: true, attempts_left: 0, last_refusal: 'not_live' },
    };
    const realUa = navigator.userAgent;
    await setUserAgent(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    );
    try {
      const { flow, key } = await startFlow(
        { session: session([liveness], { handoff_enabled: true }), challenge: ['look_straight', 'turn_left'], faceAttemptsUsed: 3, moveMs: 2_000 },
        'verify-step-liveness',
      );
      await until(() => stepText(flow, 'verify-step-liveness').includes('This did not work three times.'), 10_000, 'help before the last try');
      const text = stepText(flow, 'verify-step-liveness');
      // The cause: the capture was refused, not the moves unseen.
      expect(text).to.contain('the pictures were refused: the check could not confirm a live person in front of the camera');
      expect(text).to.not.contain('did not see the moves');
      expect(text).to.contain('Turn the screen brightness up: the colours it shows must light your face.');
      // A phone: held at eye level, no webcam; its hand-off names another device, not "my phone".
      expect(text).to.contain('Hold the phone at eye level');
      expect(text).to.not.contain('computer');
      expect(buttonByText(flow, 'verify-step-liveness', 'Continue on another device'), 'the hand-off is offered').to.not.equal(null);
      expect(buttonByText(flow, 'verify-step-liveness', 'Use my phone instead')).to.equal(null);
      expect(buttonByText(flow, 'verify-step-liveness', 'Start the camera'), 'no plain new attempt').to.equal(null);
      await flow.updateComplete;
      expect(flowButtonByText(flow, 'Continue on another device'), 'one way to the hand-off, not two').to.equal(null);
      await expect(deep(flow, 'verify-step-liveness')).to.be.accessible();
      await lastTryGoesToAPerson(flow, key);
    } finally {
      await setUserAgent(realUa);
    }
  });
});

/** The last try's capture is sent (it goes to a reviewer whatever the checks say): one challenge, then submit. */
async function lastTryGoesToAPerson(flow: VerifyFlow, key: string): Promise<void> {
  const completed = oneEvent(flow, 'verify-complete');
  buttonByText(flow, 'verify-step-liveness', 'Try once more (a person will check it)')!.click();
  await completed;
  const log = await calls(key);
  expect(
    log.filter((c) => c.path === '/session/methods/liveness/challenge'),
    'the last try only',
  ).to.have.length(1);
  expect(log.some((c) => c.path === '/session/methods/liveness/submit')).to.equal(true);
}
