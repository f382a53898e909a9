import { expect, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { parseDeposit } from '../../../../src/steps/bank/amounts.js';
import type { VerifyCompleteDetail } from '../../../../src/events/events.js';
import { calls, deep, METHODS, session, until } from '../../fixtures/double.js';
import { buttonByText, startFlow, stepText } from '../../fixtures/flow-harness.js';

const TAG = 'verify-step-bank';

function input(flow: HTMLElement, name: string): HTMLInputElement {
  return deep<HTMLInputElement>(flow, TAG, `input[name="${name}"]`)!;
}

function submit(flow: HTMLElement): void {
  deep<HTMLFormElement>(flow, TAG, 'form')!.requestSubmit();
}

describe('<verify-step-bank>', () => {
  it('takes an IBAN by keyboard, then waits at the amounts and completes with the two deposits', async () => {
    const { flow, key } = await startFlow({ session: session([METHODS.bank()]) }, TAG);
    await until(() => deep(flow, TAG, 'input[name="holder_name"]'), 5000, 'account form');
    expect(stepText(flow, TAG)).to.contain('two small deposits');
    await expect(deep(flow, TAG)).to.be.accessible();

    input(flow, 'holder_name').focus();
    await sendKeys({ type: 'Ada Lovelace' });
    input(flow, 'iban').focus();
    await sendKeys({ type: 'de89 3704 0044 0532 0130 00' });
    await sendKeys({ press: 'Enter' });
    await until(() => stepText(flow, TAG).includes('ending 3000'), 5000, 'waiting screen');
    expect(stepText(flow, TAG)).to.contain('Come back through the same link');
    // Focus moves to the news, so a screen reader reads on from there.
    expect(deep(flow, TAG)!.shadowRoot!.activeElement?.classList.contains('lead')).to.equal(true);
    expect(input(flow, 'first').getAttribute('inputmode')).to.equal('decimal');
    expect(deep(flow, TAG, 'label[for="first"]')!.textContent).to.equal('First deposit (EUR)');
    await expect(deep(flow, TAG)).to.be.accessible();

    input(flow, 'first').value = '0,34';
    input(flow, 'second').value = '0.12';
    const completed = oneEvent(flow, 'verify-complete');
    submit(flow);
    expect(((await completed) as CustomEvent<VerifyCompleteDetail>).detail.status).to.equal('completed');
    const sent = (await calls(key)).filter((c) => /^\/session\/methods\/bank\/(account|verify)$/.test(c.path));
    expect(sent.map((c) => c.body)).to.deep.equal([{ kind: 'iban', holder_name: 'Ada Lovelace', iban: 'de89 3704 0044 0532 0130 00' }, { amounts: [34, 12] }]);
  });

  it('names the field of an account that fails its check, and switches to a US account', async () => {
    const { flow } = await startFlow({ session: session([METHODS.bank()]) }, TAG);
    await until(() => deep(flow, TAG, 'input[name="iban"]'), 5000, 'account form');
    input(flow, 'holder_name').value = 'Ada Lovelace';
    input(flow, 'iban').value = 'DE00 0000';
    submit(flow);
    await until(() => stepText(flow, TAG).includes('This IBAN is not valid.'), 5000, 'IBAN error');
    expect(input(flow, 'iban').getAttribute('aria-invalid')).to.equal('true');
    expect(input(flow, 'iban').getAttribute('aria-describedby')).to.equal('step-error');
    expect(input(flow, 'holder_name').getAttribute('aria-invalid')).to.equal('false');
    await expect(deep(flow, TAG)).to.be.accessible();

    deep<HTMLInputElement>(flow, TAG, 'input[value="us"]')!.click();
    await until(() => deep(flow, TAG, 'input[name="routing_number"]'), 3000, 'US fields');
    expect(deep(flow, TAG, 'input[name="iban"]')).to.equal(null);
    expect(input(flow, 'routing_number').getAttribute('inputmode')).to.equal('numeric');
    await expect(deep(flow, TAG)).to.be.accessible();
  });

  it('resumes at the amounts on a later visit, refuses an unreadable amount locally and counts wrong ones', async () => {
    const later = METHODS.bank({
      stage: 'amounts',
      account: { kind: 'iban', country: 'DE', last4: '3000', currency: 'EUR' },
      sent_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + 5 * 86_400_000).toISOString(),
    });
    const { flow, key } = await startFlow({ session: session([later]) }, TAG);
    await until(() => deep(flow, TAG, 'input[name="first"]'), 5000, 'amounts form');
    const before = (await calls(key)).length;
    input(flow, 'first').value = '1.50';
    input(flow, 'second').value = '0.12';
    submit(flow);
    await until(() => stepText(flow, TAG).includes('e.g. 0.12'), 3000, 'format error');
    expect((await calls(key)).length).to.equal(before);
    expect(input(flow, 'first').getAttribute('aria-invalid')).to.equal('true');

    input(flow, 'first').value = '0.99';
    input(flow, 'second').value = '0.12';
    submit(flow);
    await until(() => stepText(flow, TAG).includes('2 tries left'), 3000, 'wrong amounts');
    expect(deep(flow, TAG, '[role="alert"]')!.textContent).to.equal('These are not the amounts we sent. 2 tries left.');
    await expect(deep(flow, TAG)).to.be.accessible();
  });

  it('offers new deposits once the old ones expired', async () => {
    const expired = METHODS.bank({
      stage: 'expired',
      account: { kind: 'iban', country: 'DE', last4: '3000', currency: 'EUR' },
      sent_at: new Date(Date.now() - 8 * 86_400_000).toISOString(),
      expires_at: new Date(Date.now() - 86_400_000).toISOString(),
      new_deposits_left: 1,
    });
    const { flow } = await startFlow({ session: session([expired]) }, TAG);
    await until(() => stepText(flow, TAG).includes('not entered in time'), 5000, 'expired note');
    await expect(deep(flow, TAG)).to.be.accessible();
    buttonByText(flow as never, TAG, 'Get new deposits')!.click();
    await until(() => stepText(flow, TAG).includes('Enter your account again'), 3000, 'account form again');
    input(flow, 'holder_name').value = 'Ada Lovelace';
    input(flow, 'iban').value = 'DE89370400440532013000';
    submit(flow);
    await until(() => stepText(flow, TAG).includes('ending 3000'), 5000, 'waiting again');
  });

  it('is read in Arabic right to left, with the account fields left to right', async () => {
    const { flow } = await startFlow({ session: session([METHODS.bank()]) }, TAG, { lang: 'ar' });
    await until(() => stepText(flow, TAG).includes('إيداعين'), 5000, 'Arabic text');
    expect(input(flow, 'iban').getAttribute('dir')).to.equal('ltr');
    await expect(deep(flow, TAG)).to.be.accessible();
  });
});

describe('parseDeposit', () => {
  it('reads amounts as statements show them', () => {
    expect(['0.12', '0,12', '.12', '12', '€0.12', '0.12 EUR', '0.5'].map(parseDeposit)).to.deep.equal([12, 12, 12, 12, 12, 12, 50]);
    expect(['1.50', '0.00', '100', '', 'abc', '0.123'].map(parseDeposit)).to.deep.equal([null, null, null, null, null, null]);
  });
});
