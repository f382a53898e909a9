import { expect, oneEvent } from '@open-wc/testing';
import { calls, deep, METHODS, session, until } from '../../fixtures/double.js';
import { buttonByText, startFlow, stepText } from '../../fixtures/flow-harness.js';

const TAG = 'verify-step-social-account';

/** Stands in for `window.open`: records the URL the step points the window at. */
function fakeWindow(): { opened: { location: { href: string }; closed: boolean; close(): void }; restore(): void } {
  const original = window.open;
  const opened = {
    location: { href: '' },
    closed: false,
    close() {
      this.closed = true;
    },
  };
  window.open = (() => opened) as unknown as typeof window.open;
  return { opened, restore: () => (window.open = original) };
}

describe('<verify-step-social-account>', () => {
  it('opens the sign-in window on the server’s one-time URL and moves on when the provider has vouched', async () => {
    const win = fakeWindow();
    try {
      const { flow, key } = await startFlow({ session: session([METHODS.social_account()]), signIn: 'done' }, TAG);
      expect(stepText(flow, TAG)).to.contain('we never see your password');
      await expect(deep(flow, TAG)).to.be.accessible();
      buttonByText(flow, TAG, 'Continue with TestID')!.click();
      await until(() => win.opened.location.href, 3000, 'window pointed at the sign-in');
      expect(win.opened.location.href).to.contain('/__double/sign-in');
      expect((await calls(key)).find((c) => c.path === '/session/methods/social_account/sign-in')?.body).to.deep.equal({ provider_id: 1 });
      await until(() => stepText(flow, TAG).includes('in the window that opened'), 3000, 'waiting text');
      await expect(deep(flow, TAG)).to.be.accessible();
      const completed = oneEvent(flow, 'verify-complete');
      // The provider's round trip (what Verity's callback does), as the window would load it.
      await fetch(win.opened.location.href);
      await completed;
      expect(win.opened.closed).to.equal(true);
    } finally {
      win.restore();
    }
  });

  it('says the sign-in was cancelled at the provider and offers it again', async () => {
    const win = fakeWindow();
    try {
      const { flow } = await startFlow({ session: session([METHODS.social_account()]), signIn: 'cancelled' }, TAG);
      buttonByText(flow, TAG, 'Continue with TestID')!.click();
      await until(() => win.opened.location.href, 3000, 'window pointed at the sign-in');
      await fetch(win.opened.location.href);
      await until(() => stepText(flow, TAG).includes('The sign-in was cancelled. You can try again.'), 6000, 'cancelled text');
      expect(buttonByText(flow, TAG, 'Continue with TestID')).to.not.equal(null);
      await expect(deep(flow, TAG)).to.be.accessible();
    } finally {
      win.restore();
    }
  });

  it('when the browser blocks the window, offers a link to open the sign-in, and Cancel ends it on the server', async () => {
    const original = window.open;
    window.open = (() => null) as unknown as typeof window.open;
    try {
      const { flow, key } = await startFlow({ session: session([METHODS.social_account()]), signIn: 'never' }, TAG);
      buttonByText(flow, TAG, 'Continue with TestID')!.click();
      const link = await until(() => deep<HTMLAnchorElement>(flow, TAG, 'a.button'), 3000, 'open link');
      expect(link.textContent?.trim()).to.equal('Open the TestID sign-in');
      expect(link.href).to.contain('/__double/sign-in');
      expect(stepText(flow, TAG)).to.contain('blocked the sign-in window');
      await expect(deep(flow, TAG)).to.be.accessible();
      buttonByText(flow, TAG, 'Cancel sign-in')!.click();
      await until(() => stepText(flow, TAG).includes('The sign-in was cancelled.'), 3000, 'cancelled');
      expect((await calls(key)).some((c) => c.path === '/session/methods/social_account/sign-in/cancel')).to.equal(true);
    } finally {
      window.open = original;
    }
  });

  it('speaks Arabic', async () => {
    const { flow } = await startFlow({ session: session([METHODS.social_account()]) }, TAG, { lang: 'ar' });
    await until(() => buttonByText(flow, TAG, 'المتابعة باستخدام TestID'), 3000, 'arabic button');
    await expect(deep(flow, TAG)).to.be.accessible();
  });
});
