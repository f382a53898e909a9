import { expect, oneEvent } from '@open-wc/testing';
import { calls, deep, METHODS, session, until } from '../../fixtures/double.js';
import { buttonByText, startFlow, stepText } from '../../fixtures/flow-harness.js';

const TAG = 'verify-step-payment-account';

function input(flow: HTMLElement, id: string): HTMLInputElement {
  return deep<HTMLInputElement>(flow, TAG, `#${id}`)!;
}

describe('<verify-step-payment-account>', () => {
  it('asks for the payment e-mail, confirms its code, then signs in with the payment provider', async () => {
    const original = window.open;
    const opened = { location: { href: '' }, closed: false, close: () => undefined };
    window.open = (() => opened) as unknown as typeof window.open;
    try {
      const { flow, key } = await startFlow({ session: session([METHODS.payment_account()]), signIn: 'done' }, TAG);
      await expect(deep(flow, TAG)).to.be.accessible();
      input(flow, 'payment-email').value = 'not an address';
      buttonByText(flow, TAG, 'Send code')!.click();
      await until(() => stepText(flow, TAG).includes('Enter the e-mail address of your payment account.'), 3000, 'invalid address');
      input(flow, 'payment-email').value = 'pay@shop.example';
      buttonByText(flow, TAG, 'Send code')!.click();
      await until(() => deep(flow, TAG, '#payment-code'), 3000, 'code field');
      expect((await calls(key)).find((c) => c.path === '/session/methods/payment_account/send')?.body).to.deep.equal({ email: 'pay@shop.example' });
      expect(stepText(flow, TAG)).to.contain('Enter the code we sent to p***@shop.example.');
      await expect(deep(flow, TAG)).to.be.accessible();

      input(flow, 'payment-code').value = '000000';
      buttonByText(flow, TAG, 'Confirm')!.click();
      await until(() => stepText(flow, TAG).includes('That code is not right.'), 3000, 'wrong code');
      input(flow, 'payment-code').value = '123456';
      buttonByText(flow, TAG, 'Confirm')!.click();
      await until(() => stepText(flow, TAG).includes('Now sign in to your PayProvider account'), 3000, 'sign-in part');
      await expect(deep(flow, TAG)).to.be.accessible();

      buttonByText(flow, TAG, 'Continue with PayProvider')!.click();
      await until(() => opened.location.href, 3000, 'window pointed at the sign-in');
      const completed = oneEvent(flow, 'verify-complete');
      await fetch(opened.location.href);
      await completed;
    } finally {
      window.open = original;
    }
  });

  it('completes on the code alone when the account has no payment provider', async () => {
    const method = METHODS.payment_account();
    if (method.key === 'payment_account') method.needs.provider = null;
    const { flow } = await startFlow({ session: session([method]) }, TAG);
    input(flow, 'payment-email').value = 'pay@shop.example';
    buttonByText(flow, TAG, 'Send code')!.click();
    await until(() => deep(flow, TAG, '#payment-code'), 3000, 'code field');
    const completed = oneEvent(flow, 'verify-complete');
    input(flow, 'payment-code').value = '123456';
    buttonByText(flow, TAG, 'Confirm')!.click();
    await completed;
  });

  it('speaks Arabic, right to left', async () => {
    const { flow } = await startFlow({ session: session([METHODS.payment_account()]) }, TAG, { lang: 'ar' });
    await until(() => stepText(flow, TAG).includes('البريد الإلكتروني لحساب الدفع'), 3000, 'arabic label');
    await expect(deep(flow, TAG)).to.be.accessible();
  });
});
