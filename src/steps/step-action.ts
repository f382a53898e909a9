import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ApiError } from '../api/session-client.js';
import type { VerifyError } from '../events/events.js';

/** How a step's action ended: its work `done`, `failed` (its message is shown), or not run (`busy`: one was in flight). */
export type ActionOutcome = 'done' | 'failed' | 'busy';

export interface StepActionOptions {
  /** Tries left until the method's view says (the view's `needs.attempts_left` replaces it); 0 for a step without a limit. */
  attemptsLeft?: number;
  /** The step's own words for a failure; undefined for one it does not know (then reported to the flow). */
  explain(error: unknown): string | undefined;
  /** `StepElement.report`: tells the flow and gives the message to show. */
  report(error: unknown): VerifyError;
}

/**
 * What a step that submits something holds besides its screens: one call at a time (a second
 * press while one runs does nothing), the message of the last failure, and the tries left as the
 * server counts them. Bank, Two-Step, Biometric ID, Voice and Geolocation submit through it; it re-renders its
 * host when any of them changes.
 */
export class StepAction implements ReactiveController {
  private busyNow = false;
  private message = '';
  private left: number;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: StepActionOptions,
  ) {
    this.left = options.attemptsLeft ?? 0;
    host.addController(this);
  }

  hostConnected(): void {}

  /** A call is in flight (its buttons are disabled). */
  get busy(): boolean {
    return this.busyNow;
  }

  /** The message of the last failure ('' for none), shown in the step's alert. */
  get error(): string {
    return this.message;
  }

  set error(message: string) {
    this.message = message;
    this.host.requestUpdate();
  }

  /** `aria-invalid` of the field the action submits: 'true' while its failure's message is shown. */
  get ariaInvalid(): 'true' | 'false' {
    return this.message ? 'true' : 'false';
  }

  get attemptsLeft(): number {
    return this.left;
  }

  set attemptsLeft(left: number) {
    this.left = left;
    this.host.requestUpdate();
  }

  /** Runs `work` unless a call is in flight: the last message is cleared first, and a failure's is shown. */
  async run(work: () => Promise<void>): Promise<ActionOutcome> {
    if (this.busyNow) return 'busy';
    this.setBusy(true);
    this.error = '';
    try {
      await work();
      return 'done';
    } catch (error: unknown) {
      this.error = this.explain(error);
      return 'failed';
    } finally {
      this.setBusy(false);
    }
  }

  /** The words for `error`: the step's own, or else the flow's (the error is reported). */
  explain(error: unknown): string {
    return this.options.explain(error) ?? this.options.report(error).message;
  }

  /** A wrong try: the tries left as the server says (one fewer when it does not). */
  wrongTry(error: ApiError): number {
    this.attemptsLeft = error.details.attempts_left ?? Math.max(0, this.left - 1);
    return this.left;
  }

  /** No try is left: the step stays stopped, and the flow is told. */
  ranOut(error: ApiError): void {
    this.attemptsLeft = 0;
    this.options.report(error);
  }

  private setBusy(busy: boolean): void {
    this.busyNow = busy;
    this.host.requestUpdate();
  }
}
