import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { CompleteResponse, MethodResult, MethodView, SessionView } from '../../api/contract.js';
import type { MethodKey } from '../../api/routes.js';
import { SessionClient } from '../../api/session-client.js';
import type { ProgressStore, SavedProgress } from '../../controllers/progress-store.js';
import { openSession } from './flow-session.js';
import { safeRedirect } from './flow-phase.js';

/** What opening the session gave: the session and the progress a reload left. */
export interface OpenedSession {
  session: SessionView;
  saved: SavedProgress | null;
}

/**
 * The flow's session (issue 19): opens it (hand-off token, magic link or the hosted page's cookie)
 * under an AbortController, so an element taken off the page, or a second opening, cancels the
 * request in flight and nothing changes after it; then keeps the client, the session as last
 * read, the step choices and the progress a reload resumes from. Every change re-renders the host.
 */
export class FlowSessionController implements ReactiveController {
  /** The service's client (null before the first opening). */
  client: SessionClient | null = null;
  /** Small step choices saved for a reload (e.g. the document type). */
  choices: Record<string, string> = {};
  // TS-private rather than #fields: the widget's ES2021 build turns each #field into a WeakMap and helper calls.
  private current: SessionView | null = null;
  private store: ProgressStore | null = null;
  private abort: AbortController | null = null;
  private leftWhileOpening = false;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  /** The session as last read (null before it opened). */
  get view(): SessionView | null {
    return this.current;
  }

  set view(session: SessionView | null) {
    this.current = session;
    this.host.requestUpdate();
  }

  /** Whether an opening is in flight. */
  get loading(): boolean {
    return this.abort !== null;
  }

  /** Whether the host left the page while the session was opening (it was aborted, to open again on return). */
  get interrupted(): boolean {
    return this.leftWhileOpening;
  }

  /**
   * Opens the session at `baseUrl` (the client exists once this returns its promise, before any
   * request). Resolves with the session and the saved progress; null when aborted (by the host
   * leaving the page or a later opening), and then nothing was changed. Throws what the service
   * answered (an `ApiError`), for the host to show as today.
   */
  async open(baseUrl: string, from: { handoff: string; link: string }): Promise<OpenedSession | null> {
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    this.leftWhileOpening = false;
    const client = new SessionClient({ baseUrl });
    this.client = client;
    try {
      const opened = await openSession(client, from, abort.signal);
      const saved = await opened.store.load();
      if (abort.signal.aborted) return null;
      this.store = opened.store;
      this.choices = { ...(saved?.choices ?? {}) };
      this.view = opened.session;
      return { session: opened.session, saved };
    } catch (error: unknown) {
      if (abort.signal.aborted) return null;
      throw error;
    } finally {
      if (this.abort === abort) this.abort = null;
    }
  }

  /** Remembers the step on screen (and the choices) for a reload. */
  saveProgress(method: MethodView | null): void {
    void this.store?.save({ method: method?.key ?? null, choices: this.choices });
  }

  /** Keeps one step choice, saved with the step on screen. */
  saveChoice(name: string, value: string, onScreen: MethodView | null): void {
    this.choices = { ...this.choices, [name]: value };
    this.saveProgress(onScreen);
  }

  /** Forgets the saved progress (the flow finished here). */
  clearProgress(): Promise<void> {
    return this.store?.clear() ?? Promise.resolve();
  }

  /** A step's result: its method replaced, the flow's state updated. */
  applyResult(result: MethodResult): SessionView | null {
    const session = this.current;
    if (!session) return null;
    // Changed in place too: a step still holding this view reads the new statuses.
    session.methods = session.methods.map((m) => (m.key === result.method.key ? result.method : m));
    session.state = result.state;
    this.view = { ...session };
    return this.current;
  }

  /** `POST /session/methods/{key}/retry`: the rejected method back to `assigned`; its new view. */
  async retry(key: MethodKey): Promise<MethodView> {
    const result = await this.client!.retryMethod(key);
    this.applyResult(result);
    return result.method;
  }

  /** `POST /session/complete`: the state becomes `completed`; the redirect is kept only when http(s). */
  async complete(): Promise<Pick<CompleteResponse, 'reference_id' | 'redirect_url'>> {
    const done = await this.client!.complete();
    if (this.current) this.view = { ...this.current, state: 'completed' };
    return { reference_id: done.reference_id, redirect_url: safeRedirect(done.redirect_url) };
  }

  hostDisconnected(): void {
    if (!this.abort) return;
    this.abort.abort();
    this.abort = null;
    this.leftWhileOpening = true;
  }
}
