import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { SessionView } from '../api/contract.js';

/**
 * Holds the flow's completion while something the user sent is still being checked (a method
 * `processing`), so a refusal by the analysis reaches the user before they leave (issue 22).
 * The hold is bounded: after `seconds` the flow completes anyway and the result goes to the
 * company, so a slow or stopped analysis never keeps the user on the page.
 */
export class CheckWait implements ReactiveController {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private expired = false;

  constructor(
    host: ReactiveControllerHost,
    private readonly onExpired: () => void,
  ) {
    host.addController(this);
  }

  /**
   * Whether completion should wait for `session`'s checks: yes while a method is `processing` and
   * the wait has not run out. The first hold starts the wait of `seconds`.
   */
  hold(session: SessionView, seconds: number): boolean {
    if (this.expired || !session.methods.some((m) => m.status === 'processing')) return false;
    this.timer ??= setTimeout(
      () => {
        this.timer = null;
        this.expired = true;
        this.onExpired();
      },
      Math.max(0, seconds) * 1000,
    );
    return true;
  }

  /** Ends the wait without completing (a refusal came: the user acts first); the next hold waits anew. */
  reset(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.expired = false;
  }

  hostDisconnected(): void {
    this.reset();
  }
}
