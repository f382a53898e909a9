import type { MethodView } from '../../api/contract.js';
import { sharedStyles } from '../../internal/shared-styles.js';
import { StepElement } from '../step-element.js';
import { codeRefusal, ResendCountdown, typedCode, type CodeRefusal } from './code-entry.js';
import { states } from '../../internal/lit-states.js';

/**
 * Base of the steps where the user asks for a one-time code and types it (e-mail/SMS, Payment
 * Account): whether a code was sent, a call in flight, the message shown, the resend countdown.
 */
export abstract class CodeStepElement<M extends MethodView> extends StepElement<M> {
  static override styles = [sharedStyles];
  static override properties = {
    ...StepElement.properties,
    ...states('sent', 'busy', 'error'),
  };

  declare protected sent: boolean;
  declare protected busy: boolean;
  declare protected error: string;
  protected readonly countdown = new ResendCountdown(this);

  constructor() {
    super();
    this.sent = false;
    this.busy = false;
    this.error = '';
  }

  /**
   * Submits the code typed in `input` with `verify`. A code of the wrong length never leaves the
   * device; a refused one is cleared and explained (`fallbackLeft` when the server does not say the
   * tries left), and the field keeps the focus.
   */
  protected async submitCode(
    event: SubmitEvent,
    input: HTMLInputElement,
    length: number,
    fallbackLeft: number,
    verify: (code: string) => Promise<void>,
  ): Promise<void> {
    event.preventDefault();
    const typed = typedCode(input, length);
    if ('error' in typed) {
      this.error = typed.error;
      input.focus();
      return;
    }
    this.busy = true;
    this.error = '';
    try {
      await verify(typed.code);
    } catch (error: unknown) {
      input.value = '';
      const refusal = codeRefusal(error, fallbackLeft);
      if (refusal) this.codeRefused(refusal);
      this.error = refusal?.message ?? this.report(error).message;
      input.focus();
    } finally {
      this.busy = false;
    }
  }

  /** What the step changes when the server refuses a code (tries left, or a new code needed). */
  protected abstract codeRefused(refusal: CodeRefusal): void;
}
