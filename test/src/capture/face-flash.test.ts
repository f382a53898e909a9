// The liveness step's screen flash and blink (issue 20), in the face-camera Chromium (its fake
// camera plays one still face, which looks straight; the flash and the blink are timed steps).
import { expect, oneEvent } from '@open-wc/testing';
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import { calls, deep, METHODS, session, until, type LoggedCall } from '../fixtures/double.js';
import { buttonByText, startFlow, stepText } from '../fixtures/flow-harness.js';

const COLOURS = ['#ff0000', '#00ff00', '#0000ff', '#ffff00', '#00ffff', '#ff00ff'];
const TAG = 'verify-step-liveness';

/** `rgb(r, g, b)` as `#rrggbb`; anything else (a fade between colours, transparent) as null. */
function hex(css: string): string | null {
  const m = /^rgb\((\d+), (\d+), (\d+)\)$/.exec(css);
  return m ? `#${[m[1], m[2], m[3]].map((v) => Number(v).toString(16).padStart(2, '0')).join('')}` : null;
}

/** Records the overlay's painted colour on every animation frame until `stop` resolves. */
function watchOverlay(step: HTMLElement, stop: Promise<unknown>): { painted: string[]; transitions: Set<string> } {
  const painted: string[] = [];
  const transitions = new Set<string>();
  let done = false;
  void stop.finally(() => (done = true));
  const tick = (): void => {
    const overlay = step.shadowRoot?.querySelector<HTMLElement>('.flash');
    if (overlay) {
      const style = getComputedStyle(overlay);
      transitions.add(style.transitionDuration);
      const colour = hex(style.backgroundColor);
      if (colour && COLOURS.includes(colour) && painted.at(-1) !== colour) painted.push(colour);
    }
    if (!done) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return { painted, transitions };
}

const framesOf = (log: LoggedCall[], step: string) =>
  log
    .filter((c) => c.path === '/session/methods/liveness/frames' && (c.body as { step?: string } | undefined)?.step === step)
    .map((c) => (c.body as { frame_index: string }).frame_index);

describe('<verify-step-liveness>: screen flash and blink', () => {
  it('warns first, paints the drawn colours in order around the face, sends a frame per colour and the blink frames', async function () {
    this.timeout(90_000);
    const { flow, key } = await startFlow(
      { session: session([METHODS.liveness()]), challenge: ['look_straight', 'flash', 'blink'], flashColours: COLOURS },
      TAG,
    );
    const step = deep(flow, TAG)!;
    // The notice comes before anything flashes, and the intro is keyboard- and screen-reader-usable.
    expect(stepText(flow, TAG)).to.contain('The screen will change colour');
    expect(stepText(flow, TAG)).to.contain('If changing light or flashing may affect you');
    await expect(step).to.be.accessible();
    const completed = oneEvent(flow, 'verify-complete');
    buttonByText(flow, TAG, 'Start the camera')!.focus();
    await sendKeys({ press: 'Enter' });
    const { painted, transitions } = watchOverlay(step, completed);
    await until(() => stepText(flow, TAG).includes('it will change colour'), 60_000, 'the flash instruction');
    expect(stepText(flow, TAG)).to.contain('Move 2 of 3');
    await until(() => step.shadowRoot?.querySelector('.flash'), 5_000, 'the overlay');
    await expect(step).to.be.accessible();
    await until(() => stepText(flow, TAG).includes('Blink once, slowly.'), 10_000, 'the blink instruction');
    expect(step.shadowRoot?.querySelector('.flash'), 'the flash is over').to.equal(null);
    await completed;
    expect(painted).to.deep.equal(COLOURS);
    expect([...transitions]).to.deep.equal(['0s']);
    const log = await calls(key);
    expect(framesOf(log, 'flash')).to.deep.equal(['0', '1', '2', '3', '4', '5']);
    expect(framesOf(log, 'blink')).to.deep.equal(Array.from({ length: 12 }, (_, i) => String(i)));
    expect(log.some((c) => c.path === '/session/methods/liveness/submit')).to.equal(true);
  });

  it('with reduced motion fades from colour to colour instead of switching, and still shows every colour', async function () {
    this.timeout(90_000);
    await emulateMedia({ reducedMotion: 'reduce' });
    try {
      expect(matchMedia('(prefers-reduced-motion: reduce)').matches, 'reduced motion is emulated').to.equal(true);
      const { flow, key } = await startFlow({ session: session([METHODS.liveness()]), challenge: ['look_straight', 'flash'], flashColours: COLOURS }, TAG);
      const step = deep(flow, TAG)!;
      const completed = oneEvent(flow, 'verify-complete');
      buttonByText(flow, TAG, 'Start the camera')!.click();
      const { painted, transitions } = watchOverlay(step, completed);
      await completed;
      expect(painted).to.deep.equal(COLOURS);
      expect([...transitions]).to.include('0.25s, 0.25s');
      expect(framesOf(await calls(key), 'flash')).to.have.length(6);
    } finally {
      await emulateMedia({ reducedMotion: 'no-preference' });
    }
  });
});
