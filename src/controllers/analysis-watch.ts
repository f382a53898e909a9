import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { MethodView, SessionView } from '../api/contract.js';
import type { SessionClient } from '../api/session-client.js';

/**
 * Follows the session's progress stream (`GET /session/events`) while something the user sent is
 * being checked (a method `processing`), so a refusal by the server's analysis shows at once
 * instead of after a reload (issue 24). Stops when nothing is waiting, and with its host.
 */
export class AnalysisWatch implements ReactiveController {
  private abort: AbortController | null = null;

  constructor(host: ReactiveControllerHost) {
    host.addController(this);
  }

  /** Whether the stream is open. */
  get watching(): boolean {
    return this.abort !== null;
  }

  /**
   * Starts following when `session` has a method waiting for analysis (once; later calls while
   * open do nothing). `onSession` gets each new session view and the methods that went from
   * `processing` to `rejected` since the view before it.
   */
  follow(client: SessionClient, session: SessionView, onSession: (session: SessionView, refused: MethodView[]) => void): void {
    if (this.abort || !session.methods.some((m) => m.status === 'processing')) return;
    const abort = new AbortController();
    this.abort = abort;
    let previous = session;
    void client
      .follow((event) => {
        if (event.type !== 'session') return;
        const next = event.data;
        const refused = next.methods.filter((m) => m.status === 'rejected' && previous.methods.find((p) => p.key === m.key)?.status === 'processing');
        previous = next;
        onSession(next, refused);
        if (!next.methods.some((m) => m.status === 'processing')) abort.abort();
      }, abort.signal)
      // The stream ends (completion, a network change): the flow goes on; a reload shows the state.
      .catch(() => undefined)
      .finally(() => {
        if (this.abort === abort) this.abort = null;
      });
  }

  /** Stops following. */
  stop(): void {
    this.abort?.abort();
    this.abort = null;
  }

  hostDisconnected(): void {
    this.stop();
  }
}
