import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../../src/admin/components/admin-bank-payouts.js';
import type { AdminBankPayouts } from '../../../src/admin/components/admin-bank-payouts.js';
import type { BankPayout, BankProviders } from '../../../src/api/admin/bank-payouts.js';
import { $, $$, fakeApi, until } from './fake-api.js';

const pending = (id: number, last4: string, pay: Partial<NonNullable<BankPayout['pay']>>): BankPayout => ({
  id,
  user_id: 40 + id,
  status: 'pending',
  provider: 'manual',
  country: 'DE',
  last4,
  created_at: '2026-11-26T10:00:00Z',
  paid_at: null,
  paid_by: null,
  pay: {
    currency: 'EUR',
    amounts: ['0.17', '0.42'],
    holder_name: 'Jane Doe',
    iban: 'DE89370400440532013000',
    routing_number: null,
    account_number: null,
    ...pay,
  },
});

const PROVIDERS: BankProviders = { payout: 'manual', payout_available: ['manual'], open_banking: null };

/** The payouts route over a list that "mark paid" changes as the server does (the amounts are forgotten). */
function payoutsApi() {
  const list = [
    pending(2, '3000', {}),
    {
      ...pending(1, '6789', { currency: 'USD', iban: null, routing_number: '021000021', account_number: '123456789', holder_name: 'Robert Smith' }),
      country: 'US',
    },
  ];
  return fakeApi({
    'GET /admin/api/bank-payouts': () => ({ body: { data: list, providers: PROVIDERS } }),
    'POST /admin/api/bank-payouts/2/paid': () => {
      const i = list.findIndex((p) => p.id === 2);
      list[i] = { ...list[i]!, status: 'paid', pay: null, paid_at: '2026-11-27T07:00:00Z', paid_by: 'root@example.com' };
      return { body: { success: true } };
    },
  });
}

const deepActive = (root: Element): Element | null => {
  let el: Element | null = root.shadowRoot!.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  return el;
};

describe('<admin-bank-payouts>', () => {
  it('lists the micro-deposits to pay with the account and amounts, and the providers; accessible', async () => {
    const { api } = payoutsApi();
    const el = await fixture<AdminBankPayouts>(html`<admin-bank-payouts .api=${api}></admin-bank-payouts>`);
    await until(() => $$(el, 'tbody tr').length === 2, 'payouts listed');
    const rows = $$(el, 'tbody tr').map((r) => r.textContent!.replace(/\s+/g, ' '));
    expect(rows[0]).to.contain('Jane Doe').and.contain('IBAN DE89370400440532013000').and.contain('0.17 and 0.42 EUR');
    expect(rows[1]).to.contain('Robert Smith').and.contain('Routing 021000021, account 123456789').and.contain('USD');
    expect($(el, '#pending-title')!.textContent).to.equal('To pay (2)');
    const providers = $(el, 'dl')!.textContent!.replace(/\s+/g, ' ');
    expect(providers).to.contain('Manual: deposits are listed here and in the outbox');
    expect(providers).to.contain('None configured (VERITY_OPEN_BANKING_URL)');
    await expect(el).to.be.accessible();
  });

  it('marks a payout paid with the keyboard after asking; it moves to the paid list without its amounts, focus to the next one', async () => {
    const { api, calls } = payoutsApi();
    const el = await fixture<AdminBankPayouts>(html`<admin-bank-payouts .api=${api}></admin-bank-payouts>`);
    await until(() => $$(el, 'button.mark-paid').length === 2, 'payouts listed');
    $$<HTMLButtonElement>(el, 'button.mark-paid')[0]!.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => deepActive(el)?.textContent?.trim() === 'Cancel', 'the confirmation, on Cancel');
    const dialogText = $(el, 'admin-confirm')!.shadowRoot!.textContent!;
    expect(dialogText).to.contain('0.17 and 0.42 EUR to the account ending 3000');
    await expect(el).to.be.accessible();
    // Cancel first: nothing is sent.
    await sendKeys({ press: 'Escape' });
    await until(() => !$(el, 'admin-confirm')!.shadowRoot!.querySelector('dialog')!.open, 'dialog closed');
    expect(calls.some((c) => c.method === 'POST')).to.equal(false);
    $$<HTMLButtonElement>(el, 'button.mark-paid')[0]!.focus();
    await sendKeys({ press: 'Enter' });
    await until(() => deepActive(el)?.textContent?.trim() === 'Cancel', 'the confirmation again');
    await sendKeys({ press: 'Tab' });
    expect(deepActive(el)?.textContent?.trim()).to.equal('Mark paid');
    await sendKeys({ press: 'Enter' });
    await until(() => $$(el, 'tbody tr').length === 1, 'the payout left the list');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).to.deep.equal(['/admin/api/bank-payouts/2/paid']);
    expect($(el, '[role="status"]')!.textContent).to.contain('Payout to the account ending 3000 marked paid.');
    expect($(el, '#paid-title + ul')!.textContent).to.contain('Account ending 3000 (DE), user 42: paid 2026-11-27T07:00:00Z by root@example.com');
    expect($(el, '#paid-title + ul')!.textContent).not.to.contain('0.17');
    await until(() => deepActive(el) === $$(el, 'button.mark-paid')[0], 'focus on the next payout');
    await expect(el).to.be.accessible();
  });
});
