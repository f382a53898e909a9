import type { LitElement } from 'lit';
import type { MethodView, SessionView } from '../../api/contract.js';
import type { SessionClient } from '../../api/session-client.js';
import { AnalysisWatch } from '../../controllers/analysis-watch.js';
import { CheckWait } from '../../controllers/check-wait.js';
import { emit } from '../../events/events.js';

/** What the flow lends its checks: its state, and what to do when the checks move. */
export interface ChecksFlow {
  client(): SessionClient | null;
  session(): SessionView | null;
  setSession(session: SessionView): void;
  /** Whether the live stream still matters (not handing off or completing). */
  listening(): boolean;
  /** The flow is on the "being checked" screen. */
  checking(): boolean;
  /** The flow completed and shows its result: a refusal now reopens it. */
  completed(): boolean;
  /** Back to the "being checked" screen, to show a refusal that came after completion. */
  reopen(): void;
  /** The step on screen, left to its element (its completion event moves the flow). */
  onScreen(): string | undefined;
  /** All checks passed, or the wait ran out: complete. */
  finish(): void;
}

/**
 * The flow's follow-up of what the user sent (issues 22 and 24): follows the progress stream while
 * a method is `processing`, keeps the method the server refused meanwhile (shown live until the
 * user goes to it), and holds completion, within the flow's `check-wait`, until the checks are in.
 * The stream is followed past completion too: a refusal slower than `check-wait` reopens the flow
 * on the server, and the page, while still open, shows it with its retry (issue 20).
 */
export class FlowChecks {
  /** A method the server refused after it was sent. */
  refused: MethodView | null = null;
  private readonly watch: AnalysisWatch;
  private readonly wait: CheckWait;

  constructor(
    private readonly host: LitElement,
    private readonly flow: ChecksFlow,
  ) {
    this.watch = new AnalysisWatch(host);
    this.wait = new CheckWait(host, () => flow.finish());
  }

  /** Follows the progress stream while something sent is being checked. */
  follow(): void {
    const client = this.flow.client();
    const session = this.flow.session();
    if (client && session) this.watch.follow(client, session, (next, refused) => this.onLive(next, refused));
  }

  /** Whether completion waits for the checks of `session` (see {@link CheckWait}). */
  hold(session: SessionView, seconds: number): boolean {
    return this.wait.hold(session, seconds);
  }

  /** Completion goes ahead: no wait left running. */
  release(): void {
    this.wait.reset();
  }

  /** The user went to the step `key`: its refusal is no longer shown apart. */
  seen(key: string): void {
    if (this.refused?.key !== key) return;
    this.refused = null;
    this.host.requestUpdate();
  }

  private onLive(next: SessionView, refused: MethodView[]): void {
    const session = this.flow.session();
    if (!session || !this.flow.listening()) return;
    // Only methods whose status moved are replaced: the step on screen keeps its own object.
    const onScreen = this.flow.onScreen();
    const moved = (m: MethodView) => (m.key === onScreen ? undefined : next.methods.find((n) => n.key === m.key && n.status !== m.status));
    this.flow.setSession({ ...session, state: next.state, methods: session.methods.map((m) => moved(m) ?? m) });
    const first = refused[0];
    if (!first) {
      // Waiting for the checks and they all passed: on to completion.
      if (this.flow.checking() && !this.refused && !next.methods.some((m) => m.status === 'processing')) this.flow.finish();
      return;
    }
    this.refused = first;
    this.wait.reset();
    this.host.requestUpdate();
    emit(this.host, 'verify-error', { code: 'method_rejected', message: first.reason ?? 'A step was not accepted.', retryable: first.can_retry });
    if (this.flow.completed()) this.flow.reopen();
    // On the "being checked" screen its heading changes: focus goes to it, as for a new screen.
    if (this.flow.checking()) void this.host.updateComplete.then(() => (this.host.renderRoot.querySelector('#checking-title') as HTMLElement | null)?.focus());
  }
}
