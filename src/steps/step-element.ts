/**
 * Base of every step element: receives its method from the flow (property) and the session
 * client through @lit/context, and reports to the flow with non-composed events.
 */
import { ContextConsumer } from '@lit/context';
import { updateWhenLocaleChanges } from '@lit/localize';
import { LitElement, type TemplateResult } from 'lit';
import type { MethodResult, MethodView } from '../api/contract.js';
import type { SessionClient } from '../api/session-client.js';
import type { VerifyError } from '../events/events.js';
import { fromApiError } from '../internal/errors.js';
import { flowContext, type FlowContext } from '../internal/flow-context.js';
import { StepCompleteEvent, StepErrorEvent, StepHandoffEvent, StepHandoffOfferEvent } from '../internal/step-events.js';
import { StepAction } from './step-action.js';

export abstract class StepElement<M extends MethodView = MethodView> extends LitElement {
  static override properties = { method: { attribute: false } };

  /** The method this step performs, as the session reported it. */
  declare method: M;

  protected readonly flow = new ContextConsumer(this, { context: flowContext, subscribe: true });

  constructor() {
    super();
    updateWhenLocaleChanges(this);
  }

  /** The flow's context (throws when used outside a flow). */
  protected get context(): FlowContext {
    const value = this.flow.value;
    if (!value) throw new Error(`${this.localName} must be used inside <verify-flow>.`);
    return value;
  }

  /** The session client. */
  protected get client(): SessionClient {
    return this.context.client;
  }

  /** Tells the flow the method was submitted or completed. */
  protected complete(result: MethodResult): void {
    this.dispatchEvent(new StepCompleteEvent(result));
  }

  /** Tells the flow about an error (it re-emits `verify-error`); returns the mapped error. */
  protected report(error: unknown): VerifyError {
    const mapped = fromApiError(error);
    this.dispatchEvent(new StepErrorEvent(mapped));
    return mapped;
  }

  /** Asks the flow to offer the cross-device hand-off. */
  protected requestHandoff(): void {
    this.dispatchEvent(new StepHandoffEvent());
  }

  /** What {@link offersHandoff} last told the flow (null: nothing yet from this element). */
  private handoffOffered: boolean | null = null;

  /**
   * Tells the flow whether this step shows its own hand-off button (then the flow's link is left
   * out); told on the element's first update and on every change.
   */
  protected offersHandoff(offered: boolean): void {
    if (offered === this.handoffOffered) return;
    this.handoffOffered = offered;
    this.dispatchEvent(new StepHandoffOfferEvent(offered));
  }

  /**
   * The action of a step that submits something ({@link StepAction}): `explain` words the step's
   * own failures (undefined for the others, which are reported to the flow); `attemptsLeft` until
   * the method's view says.
   */
  protected submitting(explain: (error: unknown) => string | undefined, attemptsLeft = 0): StepAction {
    return new StepAction(this, { attemptsLeft, explain, report: (error) => this.report(error) });
  }

  /** The screen on show for `phase`: its entry in `screens`, else `otherwise`. */
  protected screen<P extends string>(phase: P, screens: Partial<Record<P, () => TemplateResult>>, otherwise: () => TemplateResult): TemplateResult {
    return (screens[phase] ?? otherwise)();
  }
}
