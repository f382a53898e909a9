/**
 * Events from a step to its flow: not composed, so they stay inside the flow's shadow root
 * (only the flow and the button emit public `verify-*` events).
 */
import type { MethodResult } from '../api/contract.js';
import type { VerifyError } from '../events/events.js';

/** The step's method was submitted or completed. */
export class StepCompleteEvent extends Event {
  static readonly eventName = 'step-complete';
  constructor(readonly result: MethodResult) {
    super(StepCompleteEvent.eventName, { bubbles: true, composed: false });
  }
}

/** The step met an error the flow should report as `verify-error`. */
export class StepErrorEvent extends Event {
  static readonly eventName = 'step-error';
  constructor(readonly error: VerifyError) {
    super(StepErrorEvent.eventName, { bubbles: true, composed: false });
  }
}

/** The step asks the flow to offer the cross-device hand-off (no camera here, say). */
export class StepHandoffEvent extends Event {
  static readonly eventName = 'step-handoff';
  constructor() {
    super(StepHandoffEvent.eventName, { bubbles: true, composed: false });
  }
}

/**
 * Whether the step shows its own hand-off button now (the liveness help after three failed
 * attempts): the flow then leaves out its "Continue on another device" link, one way to the same
 * hand-off rather than two.
 */
export class StepHandoffOfferEvent extends Event {
  static readonly eventName = 'step-handoff-offer';
  constructor(readonly offered: boolean) {
    super(StepHandoffOfferEvent.eventName, { bubbles: true, composed: false });
  }
}

declare global {
  interface HTMLElementEventMap {
    'step-complete': StepCompleteEvent;
    'step-error': StepErrorEvent;
    'step-handoff': StepHandoffEvent;
    'step-handoff-offer': StepHandoffOfferEvent;
  }
}
