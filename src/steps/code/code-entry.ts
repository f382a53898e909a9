/**
 * The parts of entering a one-time code that the e-mail/SMS step and the Payment Account step
 * share: the resend countdown, the code field, and what a refused send or code says. The
 * "Confirm" submit button is also the Bank deposits' and Two-Step's.
 */
import { msg, str } from '@lit/localize';
import { html, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { ApiError } from '../../api/session-client.js';
import { pluralMsg } from '../../internal/plural.js';

/** Counts down, in whole seconds, to the moment another code may be asked for. */
export class ResendCountdown implements ReactiveController {
  secondsLeft = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  /** Counts down to `at` (epoch ms). */
  start(at: number): void {
    const tick = (): void => {
      this.secondsLeft = Math.max(0, Math.ceil((at - Date.now()) / 1000));
      if (this.secondsLeft === 0) this.stop();
      this.host.requestUpdate();
    };
    this.stop();
    this.timer = setInterval(tick, 1000);
    tick();
  }

  private stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  hostDisconnected(): void {
    this.stop();
  }
}

/**
 * A refused send that the step explains itself: too many sends starts the countdown the server
 * asks for and says to wait. Undefined for any other error (the step reports those).
 */
export function sendRefusal(error: unknown, countdown: ResendCountdown): string | undefined {
  if (!(error instanceof ApiError) || error.error_type !== 'api_rate_limit_error') return undefined;
  countdown.start(Date.now() + (error.details.retry_after_seconds ?? 30) * 1000);
  return msg('Please wait before asking for another code.', { id: 'code.wait' });
}

/** The code as typed, digits only, or the message saying how long it must be. */
export function typedCode(input: HTMLInputElement, length: number): { code: string } | { error: string } {
  const code = input.value.replace(/\D/g, '');
  return code.length === length ? { code } : { error: msg(str`Enter the ${length}-digit code.`, { id: 'code.length' }) };
}

/** What a refused code means for the user: tries left, or that a new code must be sent. */
export interface CodeRefusal {
  message: string;
  attemptsLeft?: number;
  /** The code expired or its tries ran out: only a new code can go on. */
  mustResend: boolean;
}

/** Explains a refused code; `fallbackLeft` when the server does not say the tries left. Undefined for other errors. */
export function codeRefusal(error: unknown, fallbackLeft: number): CodeRefusal | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.error_type === 'session_code_invalid') {
    const left = error.details.attempts_left ?? fallbackLeft;
    const message = pluralMsg(left, 'code.invalid', {
      one: str`That code is not right. ${left} try left.`,
      other: str`That code is not right. ${left} tries left.`,
    });
    return { message, attemptsLeft: left, mustResend: false };
  }
  if (error.error_type === 'session_code_expired') {
    return { message: msg('That code has expired. Send a new one.', { id: 'code.expired' }), mustResend: true };
  }
  if (error.error_type === 'session_attempts_exceeded') {
    return { message: msg('Too many wrong tries. Send a new code.', { id: 'code.exceeded' }), mustResend: true };
  }
  return undefined;
}

/** The one-time-code field: label, numeric input with autofill, and its error line. */
export function codeField(field: { id: string; name?: string; errorId: string; length: number; error: string; disabled?: boolean }): TemplateResult {
  return html`
    <div class="field">
      <label for=${field.id}>${msg('Code', { id: 'code.label' })}</label>
      <input
        id=${field.id}
        name=${ifDefined(field.name)}
        inputmode="numeric"
        autocomplete="one-time-code"
        pattern="[0-9]*"
        maxlength=${field.length}
        aria-invalid=${field.error ? 'true' : 'false'}
        aria-describedby=${field.errorId}
        ?disabled=${field.disabled ?? false}
      />
      <p id=${field.errorId} class="error" role="alert">${field.error}</p>
    </div>
  `;
}

/** The submit button of a form that checks what was entered (a code, the deposits). */
export function confirmButton(disabled: boolean): TemplateResult {
  return html`<button type="submit" ?disabled=${disabled}>${msg('Confirm', { id: 'code.confirm' })}</button>`;
}

/** The "send again" button's label: the countdown while it runs. */
export function resendLabel(secondsLeft: number, label: string): string {
  return secondsLeft > 0 ? msg(str`Send again in ${secondsLeft} s`, { id: 'code.resend-wait' }) : label;
}
