import { msg, str } from '@lit/localize';
import { html, nothing } from 'lit';
import type { BankAccountKind, BankNeeds, MethodResult, MethodViewOf } from '../../api/contract.js';
import { ApiError } from '../../api/session-client.js';
import { pluralMsg } from '../../internal/plural.js';
import { sharedStyles } from '../../internal/shared-styles.js';
import { confirmButton } from '../code/code-entry.js';
import { StepElement } from '../step-element.js';
import { parseDeposit } from './amounts.js';
import styles from './verify-step-bank.styles.js';
import { states } from '../../internal/lit-states.js';

type BankMethod = MethodViewOf<'bank'>;
/** The account form, the amounts form, or the note that the deposits expired. */
type Phase = 'account' | 'amounts' | 'expired';

/**
 * Bank: the user enters an account; two small deposits are paid into it; the user comes back
 * (through the same link: the step opens at the amounts) and enters them.
 */
export class VerifyStepBank extends StepElement<BankMethod> {
  static override styles = [sharedStyles, styles];
  static override properties = {
    ...StepElement.properties,
    ...states('phase', 'kind', 'needs', 'invalid'),
  };

  declare private phase: Phase;
  declare private kind: BankAccountKind;
  declare private needs: BankNeeds | null;
  /** The fields the last error is about. */
  declare private invalid: ReadonlySet<string>;
  private readonly action = this.submitting((error) => this.explain(error), 3);

  constructor() {
    super();
    this.phase = 'account';
    this.kind = 'iban';
    this.needs = null;
    this.invalid = new Set();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.method) this.adopt(this.method.needs);
  }

  private adopt(needs: BankNeeds): void {
    this.needs = needs;
    this.phase = needs.stage;
    this.action.attemptsLeft = needs.attempts_left;
  }

  /** Runs `work` through the action; after a failure the first field it is about has the focus. */
  private async run(work: () => Promise<void>): Promise<void> {
    const outcome = await this.action.run(async () => {
      this.invalid = new Set();
      await work();
    });
    if (outcome !== 'failed') return;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>('input[aria-invalid="true"]')?.focus();
  }

  private explain(error: unknown): string | undefined {
    if (!(error instanceof ApiError)) return undefined;
    switch (error.error_type) {
      case 'api_validation_error': {
        const fields = Object.keys(error.errors ?? {});
        this.invalid = new Set(fields);
        if (fields.includes('iban')) return msg('This IBAN is not valid. Check the country code and every digit.', { id: 'bank.iban-invalid' });
        if (fields.includes('routing_number')) return msg('This routing number is not valid. It has 9 digits.', { id: 'bank.routing-invalid' });
        if (fields.includes('account_number')) return msg('Enter the account number: 4 to 17 digits.', { id: 'bank.account-invalid' });
        return msg('Enter the name on the account.', { id: 'bank.holder-invalid' });
      }
      case 'session_code_invalid': {
        const left = this.action.wrongTry(error);
        this.invalid = new Set(['first', 'second']);
        return pluralMsg(left, 'bank.wrong', {
          one: str`These are not the amounts we sent. ${left} try left.`,
          other: str`These are not the amounts we sent. ${left} tries left.`,
        });
      }
      case 'session_code_expired':
        this.phase = 'expired';
        return '';
      case 'session_attempts_exceeded':
        this.action.ranOut(error);
        return msg('Too many wrong tries. This step was stopped.', { id: 'bank.exceeded' });
      case 'session_method_state_error':
        return msg('Your deposits are already on their way. Enter them when they arrive.', { id: 'bank.already-sent' });
      default:
        return undefined;
    }
  }

  private value(name: string): string {
    return this.renderRoot.querySelector<HTMLInputElement>(`input[name="${name}"]`)?.value ?? '';
  }

  private submitAccount(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const body =
      this.kind === 'iban'
        ? { kind: 'iban' as const, holder_name: this.value('holder_name'), iban: this.value('iban') }
        : {
            kind: 'us' as const,
            holder_name: this.value('holder_name'),
            routing_number: this.value('routing_number'),
            account_number: this.value('account_number'),
          };
    if (body.holder_name.trim().length < 2) {
      this.action.error = msg('Enter the name on the account.', { id: 'bank.holder-invalid' });
      this.invalid = new Set(['holder_name']);
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>('input[name="holder_name"]')?.focus());
      return Promise.resolve();
    }
    return this.run(async () => {
      const result = await this.client.submitBankAccount(body);
      this.show(result);
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('.lead')?.focus();
    });
  }

  private submitAmounts(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const first = parseDeposit(this.value('first'));
    const second = parseDeposit(this.value('second'));
    if (first === null || second === null) {
      this.action.error = msg('Enter each deposit as it shows on your statement, e.g. 0.12.', { id: 'bank.amount-format' });
      this.invalid = new Set([...(first === null ? ['first'] : []), ...(second === null ? ['second'] : [])]);
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>('input[aria-invalid="true"]')?.focus());
      return Promise.resolve();
    }
    return this.run(async () => {
      const result = await this.client.verifyBankDeposits({ amounts: [first, second] });
      this.complete(result);
    });
  }

  private show(result: MethodResult): void {
    if (result.method.key === 'bank') this.adopt(result.method.needs);
  }

  protected override render() {
    if (this.phase === 'amounts') return this.renderAmounts();
    if (this.phase === 'expired') return this.renderExpired();
    return this.renderAccount();
  }

  private renderAccount() {
    const again = this.needs?.stage === 'expired';
    return html`
      <p>
        ${
          again
            ? msg('Enter your account again and we will send two new deposits.', { id: 'bank.again' })
            : msg('We will send two small deposits (under 1.00 each) to your bank account. You then enter them here to show the account is yours.', {
                id: 'bank.intro',
              })
        }
      </p>
      <form @submit=${(e: SubmitEvent) => void this.submitAccount(e)} novalidate>
        <fieldset>
          <legend>${msg('Account type', { id: 'bank.kind' })}</legend>
          <div class="kinds">
            <label class="choice"
              ><input type="radio" name="kind" value="iban" .checked=${this.kind === 'iban'} @change=${() => this.choose('iban')} />
              ${msg('IBAN', { id: 'bank.kind-iban' })}</label
            >
            <label class="choice"
              ><input type="radio" name="kind" value="us" .checked=${this.kind === 'us'} @change=${() => this.choose('us')} />
              ${msg('US account (routing number)', { id: 'bank.kind-us' })}</label
            >
          </div>
        </fieldset>
        ${this.field('holder_name', msg('Name on the account', { id: 'bank.holder' }), { autocomplete: 'name' })}
        ${
          this.kind === 'iban'
            ? this.field('iban', msg('IBAN', { id: 'bank.kind-iban' }), { ltr: true, autocomplete: 'off', hint: 'DE89 3704 0044 0532 0130 00' })
            : html`${this.field('routing_number', msg('Routing number (9 digits)', { id: 'bank.routing' }), { ltr: true, numeric: true, autocomplete: 'off' })}
              ${this.field('account_number', msg('Account number', { id: 'bank.account' }), { ltr: true, numeric: true, autocomplete: 'off' })}`
        }
        ${this.renderError()}
        <div class="actions">
          <button type="submit" ?disabled=${this.action.busy}>${msg('Send the deposits', { id: 'bank.send' })}</button>
        </div>
      </form>
    `;
  }

  private renderAmounts() {
    const needs = this.needs;
    const account = needs?.account;
    const until = needs?.expires_at ? new Date(needs.expires_at).toLocaleDateString(document.documentElement.lang || undefined, { dateStyle: 'long' }) : '';
    const currency = account?.currency ?? '';
    return html`
      <p class="lead" tabindex="-1">
        ${msg(str`We sent two small deposits to your account ending ${account?.last4 ?? ''}. They arrive in 1–2 business days.`, { id: 'bank.sent' })}
      </p>
      <p>${msg(str`Come back through the same link when they show on your statement, and enter them here before ${until}.`, { id: 'bank.come-back' })}</p>
      <form @submit=${(e: SubmitEvent) => void this.submitAmounts(e)} novalidate>
        <div class="amounts">
          ${this.field('first', msg(str`First deposit (${currency})`, { id: 'bank.first' }), { ltr: true, decimal: true, autocomplete: 'off', hint: '0.00' })}
          ${this.field('second', msg(str`Second deposit (${currency})`, { id: 'bank.second' }), { ltr: true, decimal: true, autocomplete: 'off', hint: '0.00' })}
        </div>
        ${this.renderError()}
        <div class="actions">${confirmButton(this.action.busy || this.action.attemptsLeft === 0)}</div>
      </form>
    `;
  }

  private renderExpired() {
    const left = this.needs?.new_deposits_left ?? 0;
    return html`
      <p class="lead" tabindex="-1">${msg('The deposits were not entered in time.', { id: 'bank.expired' })}</p>
      ${this.renderError()}
      ${
        left > 0
          ? html`<div class="actions">
              <button type="button" @click=${() => this.restart()}>${msg('Get new deposits', { id: 'bank.new' })}</button>
            </div>`
          : html`<p>${msg('No new deposits can be sent. The service will contact you.', { id: 'bank.no-more' })}</p>`
      }
    `;
  }

  private field(name: string, label: string, options: { ltr?: boolean; numeric?: boolean; decimal?: boolean; autocomplete: string; hint?: string }) {
    const invalid = this.invalid.has(name);
    return html`<div class="field">
      <label for=${name}>${label}</label>
      <input
        id=${name}
        name=${name}
        class=${options.ltr ? 'ltr' : ''}
        dir=${options.ltr ? 'ltr' : 'auto'}
        inputmode=${options.decimal ? 'decimal' : options.numeric ? 'numeric' : 'text'}
        autocomplete=${options.autocomplete}
        spellcheck="false"
        placeholder=${options.hint ?? nothing}
        maxlength="64"
        aria-invalid=${invalid ? 'true' : 'false'}
        aria-describedby=${invalid ? 'step-error' : nothing}
        ?disabled=${this.phase === 'amounts' && this.action.attemptsLeft === 0}
      />
    </div>`;
  }

  private renderError() {
    return html`<p id="step-error" class="error" role="alert">${this.action.error}</p>`;
  }

  private choose(kind: BankAccountKind): void {
    this.kind = kind;
    this.action.error = '';
    this.invalid = new Set();
  }

  private restart(): void {
    this.action.error = '';
    this.phase = 'account';
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>('input[name="holder_name"]')?.focus());
  }
}
