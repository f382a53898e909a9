import { css, html, nothing } from 'lit';
import { adminStyles } from '../styles.js';
import { AdminView } from './admin-view.js';
import type { BankPayout, BankPayoutsAnswer, BankProviders } from '../../api/admin/bank-payouts.js';

/**
 * The dashboard's Bank page: the micro-deposits waiting to be paid by hand (the default, manual
 * payout provider lists them here and in the outbox), each with the account and the two amounts
 * and a "Mark paid" that asks first, the recently paid ones (amounts forgotten), and the provider
 * configuration.
 *
 * @tagname admin-bank-payouts
 */
export class AdminBankPayouts extends AdminView {
  static override styles = [
    adminStyles,
    css`
      dl {
        display: grid;
        grid-template-columns: max-content 1fr;
        gap: 0.25rem 1rem;
      }
      dd {
        margin: 0;
      }
      .amounts {
        font-variant-numeric: tabular-nums;
      }
    `,
  ];

  static override properties = { ...AdminView.properties, payouts: { state: true }, providers: { state: true }, loaded: { state: true } };
  declare payouts: BankPayout[];
  declare providers: BankProviders | null;
  declare loaded: boolean;
  #busy = false;

  constructor() {
    super();
    this.payouts = [];
    this.providers = null;
    this.loaded = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  async load(): Promise<void> {
    const res = await this.run(() => this.client.get<BankPayoutsAnswer>('/admin/api/bank-payouts'));
    if (res) {
      this.payouts = res.data;
      this.providers = res.providers;
    }
    this.loaded = true;
  }

  async #markPaid(payout: BankPayout): Promise<void> {
    if (this.#busy || !payout.pay) return;
    const ok = await this.confirmAction(
      `Mark the deposits of ${payout.pay.amounts.join(' and ')} ${payout.pay.currency} to the account ending ${payout.last4} as paid? The amounts and the account number are then forgotten.`,
      'Mark paid',
    );
    if (!ok) return;
    this.#busy = true;
    const done = await this.run(
      () => this.client.post(`/admin/api/bank-payouts/${payout.id}/paid`),
      `Payout to the account ending ${payout.last4} marked paid.`,
    );
    this.#busy = false;
    if (done === undefined) return;
    await this.load();
    await this.updateComplete;
    // The row went to the paid list: focus to the next pending payout's button, else the heading.
    (this.renderRoot.querySelector<HTMLElement>('button.mark-paid') ?? this.renderRoot.querySelector<HTMLElement>('#pending-title'))?.focus();
  }

  override render() {
    const pending = this.payouts.filter((p) => p.status === 'pending');
    const paid = this.payouts.filter((p) => p.status === 'paid');
    return html`<h1>Bank payouts</h1>
      <section aria-labelledby="pending-title">
        <h2 id="pending-title" tabindex="-1">To pay (${pending.length})</h2>
        ${
          !this.loaded
            ? html`<p>Loading…</p>`
            : pending.length === 0
              ? html`<p>No micro-deposits are waiting to be paid.</p>`
              : html`<table>
                  <caption>
                    Micro-deposits to pay by hand
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">User</th>
                      <th scope="col">Account holder</th>
                      <th scope="col">Account</th>
                      <th scope="col">Amounts</th>
                      <th scope="col">Since</th>
                      <th scope="col">Action</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${pending.map(
                      (p) =>
                        html`<tr>
                          <td><a href=${`/admin/users/${p.user_id}`}>User ${p.user_id}</a></td>
                          <td>${p.pay?.holder_name ?? ''}</td>
                          <td id=${`payout-${p.id}`}>
                            ${p.pay?.iban ? html`IBAN ${p.pay.iban}` : html`Routing ${p.pay?.routing_number ?? ''}, account ${p.pay?.account_number ?? ''}`}
                            (${p.country})
                          </td>
                          <td class="amounts">${p.pay ? `${p.pay.amounts[0]} and ${p.pay.amounts[1]} ${p.pay.currency}` : ''}</td>
                          <td>${p.created_at}</td>
                          <td>
                            <button type="button" class="secondary mark-paid" aria-describedby=${`payout-${p.id}`} @click=${() => void this.#markPaid(p)}>
                              Mark paid
                            </button>
                          </td>
                        </tr>`,
                    )}
                  </tbody>
                </table>`
        }
      </section>
      ${
        paid.length > 0
          ? html`<section aria-labelledby="paid-title">
              <h2 id="paid-title">Paid</h2>
              <ul>
                ${paid.map((p) => html`<li>Account ending ${p.last4} (${p.country}), user ${p.user_id}: paid ${p.paid_at ?? ''} by ${p.paid_by ?? 'unknown'}</li>`)}
              </ul>
            </section>`
          : nothing
      }
      <section aria-labelledby="providers-title">
        <h2 id="providers-title">Providers</h2>
        ${
          this.providers
            ? html`<dl>
                <dt>Payout provider</dt>
                <dd>
                  ${this.providers.payout === 'manual' ? 'Manual: deposits are listed here and in the outbox, and paid by hand' : this.providers.payout}
                  (available: ${this.providers.payout_available.join(', ')})
                </dd>
                <dt>Open banking (account-holder name check)</dt>
                <dd>${this.providers.open_banking ?? 'None configured (VERITY_OPEN_BANKING_URL): the name the user typed is compared'}</dd>
              </dl>`
            : nothing
        }
      </section>
      ${this.feedback()}`;
  }
}

if (!customElements.get('admin-bank-payouts')) customElements.define('admin-bank-payouts', AdminBankPayouts);

declare global {
  interface HTMLElementTagNameMap {
    'admin-bank-payouts': AdminBankPayouts;
  }
}
