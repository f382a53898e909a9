import { msg, str } from '@lit/localize';
import { html, nothing, svg } from 'lit';
import type { MethodViewOf, TotpEnrolment, TwoStepVerified, TwoStepVerifyRequest } from '../../api/contract.js';
import { ApiError } from '../../api/session-client.js';
import { pluralMsg } from '../../internal/plural.js';
import { sharedStyles } from '../../internal/shared-styles.js';
import { qrPath } from '../handoff/qr.js';
import { confirmButton } from '../code/code-entry.js';
import { StepElement } from '../step-element.js';
import styles from './verify-step-two-step.styles.js';
import { states } from '../../internal/lit-states.js';

type TwoStepMethod = MethodViewOf<'two_step'>;
/** What the step shows: the choice, the QR set-up, the phone for SMS, a code, or the recovery codes. */
type Phase = 'choose' | 'scan' | 'phone' | 'code' | 'codes';

/**
 * Two-Step Authentication: sets up an authenticator app (QR code and key shown once, then a first
 * code; the recovery codes shown once), or SMS codes where the account allows them; on a repeat
 * visit, a code from the factor already on, or a recovery code.
 */
export class VerifyStepTwoStep extends StepElement<TwoStepMethod> {
  static override styles = [sharedStyles, styles];
  static override properties = {
    ...StepElement.properties,
    ...states('phase', 'channel', 'enrolment', 'verified', 'status', 'destination'),
  };

  declare private phase: Phase;
  declare private channel: TwoStepVerifyRequest['channel'];
  declare private enrolment: TotpEnrolment | null;
  declare private verified: TwoStepVerified | null;
  /** Polite announcements (copied, code sent). */
  declare private status: string;
  declare private destination: string;
  private readonly action = this.submitting((error) => this.explain(error), 5);

  constructor() {
    super();
    this.phase = 'choose';
    this.channel = 'totp';
    this.enrolment = null;
    this.verified = null;
    this.status = '';
    this.destination = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.method) return;
    const needs = this.method.needs;
    this.action.attemptsLeft = needs.attempts_left;
    this.destination = needs.sms?.destination_masked ?? '';
    if (needs.mode === 'prove') {
      this.channel = needs.enabled_factor === 'sms' ? 'sms' : 'totp';
      this.phase = needs.enabled_factor === 'sms' && !needs.sms?.code_sent ? 'choose' : 'code';
    } else if (needs.sms?.code_sent) {
      this.channel = 'sms';
      this.phase = 'code';
    }
  }

  private async run(work: () => Promise<void>): Promise<void> {
    await this.action.run(async () => {
      this.status = '';
      await work();
    });
  }

  private explain(error: unknown): string | undefined {
    if (!(error instanceof ApiError)) return undefined;
    switch (error.error_type) {
      case 'session_code_invalid': {
        const left = this.action.wrongTry(error);
        return pluralMsg(left, 'two-step.invalid', {
          one: str`That code is not right. ${left} try left.`,
          other: str`That code is not right. ${left} tries left.`,
        });
      }
      case 'session_code_expired':
        return this.channel === 'totp' && this.method.needs.mode === 'enrol' && this.phase === 'scan'
          ? msg('This set-up has expired. Start again for a new QR code.', { id: 'two-step.enrol-expired' })
          : msg('That code has expired or was already used. Use a new one.', { id: 'two-step.expired' });
      case 'session_attempts_exceeded':
        this.action.ranOut(error);
        return msg('Too many wrong codes. This step was stopped.', { id: 'two-step.exceeded' });
      case 'api_rate_limit_error':
        return msg('Please wait before asking for another code.', { id: 'code.wait' });
      case 'api_validation_error':
        return msg('Enter a mobile number with its country code, e.g. +44 7911 123456.', { id: 'two-step.phone-invalid' });
      default:
        return undefined;
    }
  }

  private startTotp(): Promise<void> {
    return this.run(async () => {
      this.enrolment = await this.client.enrolTotp();
      this.channel = 'totp';
      this.phase = 'scan';
      await this.focusLead();
    });
  }

  private sendSms(event?: SubmitEvent): Promise<void> {
    event?.preventDefault();
    const phone = this.method.needs.mode === 'enrol' ? (this.renderRoot.querySelector<HTMLInputElement>('input#phone')?.value ?? '') : undefined;
    return this.run(async () => {
      const sent = await this.client.sendTwoStepSms(phone);
      this.destination = sent.destination_masked;
      this.action.attemptsLeft = sent.attempts_left;
      this.channel = 'sms';
      this.phase = 'code';
      this.status = msg(str`We sent a code to ${sent.destination_masked}.`, { id: 'two-step.sms-sent' });
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>('input#code')?.focus();
    });
  }

  private verify(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const input = this.renderRoot.querySelector<HTMLInputElement>('input#code')!;
    const length = this.method.needs.code_length;
    const code = this.channel === 'recovery' ? input.value.trim() : input.value.replace(/\D/g, '');
    if (this.channel !== 'recovery' && code.length !== length) {
      this.action.error = msg(str`Enter the ${length}-digit code.`, { id: 'code.length' });
      input.focus();
      return Promise.resolve();
    }
    return this.run(async () => {
      try {
        const verified = await this.client.verifyTwoStep({ channel: this.channel, code });
        input.value = '';
        if (verified.recovery_codes.length > 0) {
          this.verified = verified;
          this.phase = 'codes';
          await this.focusLead();
        } else this.complete(verified);
      } catch (error: unknown) {
        input.value = '';
        input.focus();
        throw error;
      }
    });
  }

  private async copy(text: string, done: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      this.status = done;
    } catch {
      this.status = msg('Copying is not allowed here: select the text and copy it.', { id: 'two-step.copy-failed' });
    }
  }

  protected override render() {
    return this.screen(
      this.phase,
      { scan: () => this.renderScan(), phone: () => this.renderPhone(), code: () => this.renderCode(), codes: () => this.renderRecoveryCodes() },
      () => this.renderChoice(),
    );
  }

  private renderChoice() {
    const needs = this.method.needs;
    if (needs.mode === 'prove') {
      return html`<p>${msg(str`We will text a code to ${this.destination}.`, { id: 'code.intro-phone' })}</p>
        ${this.renderMessages()}
        <div class="actions">
          <button type="button" ?disabled=${this.action.busy} @click=${() => void this.sendSms()}>${msg('Send code', { id: 'code.send' })}</button>
        </div>`;
    }
    return html`
      <p>${msg('Add a second step to protect your account: a code from an authenticator app on your phone.', { id: 'two-step.intro' })}</p>
      ${this.renderMessages()}
      <div class="actions">
        <button type="button" ?disabled=${this.action.busy} @click=${() => void this.startTotp()}>
          ${msg('Set up an authenticator app', { id: 'two-step.start-app' })}
        </button>
        ${
          needs.sms_allowed
            ? html`<button type="button" class="secondary" ?disabled=${this.action.busy} @click=${() => this.go('phone')}>
                ${msg('Use text messages instead', { id: 'two-step.use-sms' })}
              </button>`
            : nothing
        }
      </div>
    `;
  }

  private renderScan() {
    const enrolment = this.enrolment!;
    const { d, size } = qrPath(enrolment.otpauth_uri);
    const grouped = enrolment.secret.replace(/(.{4})(?=.)/g, '$1 ');
    return html`
      <p class="lead" tabindex="-1">${msg('Scan this QR code with your authenticator app. It is shown only now.', { id: 'two-step.scan' })}</p>
      <svg
        class="qr"
        viewBox="0 0 ${size} ${size}"
        role="img"
        aria-label=${msg('QR code to add this account to your authenticator app', { id: 'two-step.qr-label' })}
      >
        ${svg`<rect width=${size} height=${size} fill="#fff"></rect><path d=${d} fill="#000"></path>`}
      </svg>
      <p>${msg('Cannot scan? Enter this key in the app instead:', { id: 'two-step.key-intro' })}</p>
      <p class="secret" id="secret">${grouped}</p>
      <div class="actions key-actions">
        <button
          type="button"
          class="secondary"
          aria-describedby="secret"
          @click=${() => void this.copy(enrolment.secret, msg('Key copied.', { id: 'two-step.key-copied' }))}
        >
          ${msg('Copy key', { id: 'two-step.copy-key' })}
        </button>
      </div>
      ${this.renderCodeForm(msg('Code from the app', { id: 'two-step.app-code-label' }))}
    `;
  }

  private renderPhone() {
    return html`
      <form @submit=${(e: SubmitEvent) => void this.sendSms(e)} novalidate>
        <div class="field">
          <label for="phone">${msg('Mobile number', { id: 'two-step.phone-label' })}</label>
          <input id="phone" name="phone" type="tel" autocomplete="tel" dir="ltr" aria-invalid=${this.action.ariaInvalid} aria-describedby="step-error" />
        </div>
        ${this.renderMessages()}
        <div class="actions">
          <button type="submit" ?disabled=${this.action.busy}>${msg('Send code', { id: 'code.send' })}</button>
          <button type="button" class="secondary" ?disabled=${this.action.busy} @click=${() => this.go('choose')}>
            ${msg('Use an authenticator app instead', { id: 'two-step.use-app' })}
          </button>
        </div>
      </form>
    `;
  }

  private renderCode() {
    const needs = this.method.needs;
    const intro =
      this.channel === 'sms'
        ? msg(str`Enter the code we sent to ${this.destination}.`, { id: 'code.sent' })
        : this.channel === 'recovery'
          ? msg('Enter one of the recovery codes you saved. Each works once.', { id: 'two-step.recovery-intro' })
          : msg('Enter the code your authenticator app shows now.', { id: 'two-step.prove-intro' });
    const label = this.channel === 'recovery' ? msg('Recovery code', { id: 'two-step.recovery-label' }) : msg('Code', { id: 'code.label' });
    return html`
      <p>${intro}</p>
      ${this.renderCodeForm(label)}
      <div class="actions">
        ${
          this.channel === 'sms'
            ? html`<button type="button" class="link" ?disabled=${this.action.busy} @click=${() => void this.sendSms()}>
                ${msg('Send a new code', { id: 'code.resend' })}
              </button>`
            : nothing
        }
        ${
          needs.mode === 'prove' && needs.enabled_factor === 'totp' && needs.recovery_codes_left > 0
            ? html`<button type="button" class="link" @click=${() => this.switchChannel(this.channel === 'recovery' ? 'totp' : 'recovery')}>
                ${
                  this.channel === 'recovery'
                    ? msg('Use a code from the app instead', { id: 'two-step.use-app-code' })
                    : msg('Lost your phone? Use a recovery code', { id: 'two-step.use-recovery' })
                }
              </button>`
            : nothing
        }
      </div>
    `;
  }

  private renderCodeForm(label: string) {
    const recovery = this.channel === 'recovery';
    return html`
      <form @submit=${(e: SubmitEvent) => void this.verify(e)} novalidate>
        <div class="field">
          <label for="code">${label}</label>
          <input
            id="code"
            name="code"
            dir="ltr"
            inputmode=${recovery ? 'text' : 'numeric'}
            autocomplete=${recovery ? 'off' : 'one-time-code'}
            maxlength=${recovery ? 11 : this.method.needs.code_length}
            spellcheck="false"
            aria-invalid=${this.action.ariaInvalid}
            aria-describedby="step-error"
            ?disabled=${this.action.attemptsLeft === 0}
          />
        </div>
        ${this.renderMessages()}
        <div class="actions">${confirmButton(this.action.busy || this.action.attemptsLeft === 0)}</div>
      </form>
    `;
  }

  private renderRecoveryCodes() {
    const verified = this.verified!;
    const all = verified.recovery_codes.join('\n');
    return html`
      <p class="lead" tabindex="-1">${msg('Two-step authentication is on.', { id: 'two-step.done' })}</p>
      <p>
        ${msg('Save these recovery codes somewhere safe. Each one works once if you lose your phone. They are shown only now.', {
          id: 'two-step.codes-intro',
        })}
      </p>
      <ol class="codes" aria-label=${msg('Recovery codes', { id: 'two-step.codes-label' })}>
        ${verified.recovery_codes.map((c) => html`<li>${c}</li>`)}
      </ol>
      <p class="visually-hidden" role="status" aria-live="polite">${this.status}</p>
      <div class="actions">
        <button type="button" class="secondary" @click=${() => void this.copy(all, msg('Recovery codes copied.', { id: 'two-step.codes-copied' }))}>
          ${msg('Copy codes', { id: 'two-step.copy-codes' })}
        </button>
        <button type="button" @click=${() => this.complete(verified)}>${msg('I have saved them', { id: 'two-step.saved' })}</button>
      </div>
    `;
  }

  /** The error (announced at once) and the polite status line, shared by every phase. */
  private renderMessages() {
    return html`<p id="step-error" class="error" role="alert">${this.action.error}</p>
      <p class="visually-hidden" role="status" aria-live="polite">${this.status}</p>`;
  }

  /** Moves focus to the new view's first sentence, so a screen reader reads on from there and Tab goes on to its controls. */
  private async focusLead(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('.lead')?.focus();
  }

  private go(phase: Phase): void {
    this.action.error = '';
    this.phase = phase;
  }

  private switchChannel(channel: TwoStepVerifyRequest['channel']): void {
    this.channel = channel;
    this.action.error = '';
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>('input#code')?.focus());
  }
}
