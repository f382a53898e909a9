import { expect, fixture, html } from '@open-wc/testing';
import { formatLeft, type VerifyCallCountdown } from '../../../../src/steps/live_video/call-countdown.js';
import { until } from '../../fixtures/double.js';

function text(el: VerifyCallCountdown): string {
  return el.shadowRoot!.textContent!.replace(/\s+/g, ' ').trim();
}

describe('<verify-call-countdown>', () => {
  it('shows the time left as a timer that counts down, and is accessible', async () => {
    const el = await fixture<VerifyCallCountdown>(html`<verify-call-countdown .seconds=${125}></verify-call-countdown>`);
    expect(text(el)).to.contain('Time left in the call: 2:05');
    const timer = el.shadowRoot!.querySelector('[role=timer]')!;
    expect(timer.getAttribute('aria-label')).to.equal('Time left in the call');
    // Not the last minute yet: nothing is announced.
    expect(text(el)).to.not.contain('Less than a minute');
    await expect(el).to.be.accessible();
    await until(() => text(el).includes('2:04') || text(el).includes('2:03'), 4000, 'the countdown to move');
  });

  it('announces the last minute once, shows it as urgent, and stops at zero', async () => {
    const el = await fixture<VerifyCallCountdown>(html`<verify-call-countdown .seconds=${42}></verify-call-countdown>`);
    expect(text(el)).to.contain('Time left in the call: 0:42');
    expect(el.shadowRoot!.querySelector('[aria-live=polite]')!.textContent).to.contain('Less than a minute of the call is left.');
    expect(el.shadowRoot!.querySelector('p.urgent')).to.not.equal(null);
    await expect(el).to.be.accessible();
    el.seconds = 0;
    await el.updateComplete;
    expect(text(el)).to.contain('0:00');
    expect(text(el)).to.not.contain('Less than a minute');
  });

  it('formats minutes and hours', () => {
    expect(formatLeft(900)).to.equal('15:00');
    expect(formatLeft(59.2)).to.equal('1:00');
    expect(formatLeft(3725)).to.equal('1:02:05');
    expect(formatLeft(-3)).to.equal('0:00');
  });
});
