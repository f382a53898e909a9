/**
 * The sign-in with an OpenID Connect provider, as the Social Account and Payment Account steps
 * drive it: opens the sign-in window in the click (so pop-up blockers allow it), points it at the
 * one-time URL the server answers, and follows the step's `needs.sign_in` through the session
 * until the provider has sent the user back; then closes the window. A window the browser blocked
 * leaves a link to open the sign-in by hand (a click on a link is never blocked).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { MethodResult, OidcMethodKey, SignInStatus } from '../../api/contract.js';
import type { SessionClient } from '../../api/session-client.js';
import { signInProblem } from './sign-in-texts.js';

/** How often the session is read while the user is at the provider. */
const POLL_MS = 2000;

export type SignInPhase = 'idle' | 'starting' | 'waiting';

/**
 * What the controller needs from its step, as functions (so the step's own members stay
 * protected): the session client, and where the outcome goes.
 */
export interface SignInHooks {
  readonly client: () => SessionClient;
  /** The step moved on (complete, in review): hand the result to the flow. */
  readonly finished: (result: MethodResult) => void;
  /** Tells the flow about an error the session client threw; returns its wording. */
  readonly report: (error: unknown) => string;
  /** Shows why the sign-in ended without proving anything, or failed to start. */
  readonly failed: (problem: string) => void;
}

export class SignInController implements ReactiveController {
  phase: SignInPhase = 'idle';
  /** The one-time URL, kept for the "open it by hand" link when the window was blocked. */
  url: string | null = null;
  /** The browser refused to open the window. */
  blocked = false;
  /** The window was closed while the sign-in is still pending. */
  windowClosed = false;
  #window: Window | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly hooks: SignInHooks,
  ) {
    host.addController(this);
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this.#stop();
  }

  /** Starts a sign-in with `providerId`; call it from the click handler itself. */
  async start(key: OidcMethodKey, providerId: number): Promise<void> {
    if (this.phase !== 'idle') return;
    // Opened now, inside the click: after an await the browser would treat it as unrequested.
    this.#window = window.open('', 'verity-sign-in', 'popup,width=520,height=700');
    this.blocked = this.#window === null;
    this.windowClosed = false;
    this.phase = 'starting';
    this.host.requestUpdate();
    try {
      const { url } = await this.hooks.client().startSignIn(key, providerId);
      this.url = url;
      if (this.#window) this.#window.location.href = url;
      this.phase = 'waiting';
      this.#schedule(key);
    } catch (error: unknown) {
      this.#closeWindow();
      this.phase = 'idle';
      this.#fail('none', error);
    }
    this.host.requestUpdate();
  }

  /** The user gave up: the pending sign-in ends on the server too (its late callback changes nothing). */
  async cancel(key: OidcMethodKey): Promise<void> {
    this.#stop();
    this.#closeWindow();
    this.phase = 'idle';
    this.url = null;
    this.host.requestUpdate();
    try {
      await this.hooks.client().cancelSignIn(key);
    } catch (error: unknown) {
      this.#fail('cancelled', error);
      return;
    }
    this.#fail('cancelled');
  }

  #schedule(key: OidcMethodKey): void {
    this.#timer = setTimeout(() => void this.#poll(key), POLL_MS);
  }

  async #poll(key: OidcMethodKey): Promise<void> {
    if (this.phase !== 'waiting') return;
    try {
      const session = await this.hooks.client().session();
      const method = session.methods.find((m) => m.key === key);
      if (method && (method.key === 'social_account' || method.key === 'payment_account')) {
        const done = method.status !== 'assigned' && method.status !== 'reset';
        const signIn = method.needs.sign_in;
        if (done || signIn === 'done') {
          this.#finish();
          this.hooks.finished({ method, state: session.state });
          return;
        }
        if (signIn !== 'pending') {
          this.#finish();
          this.#fail(signIn);
          return;
        }
      }
    } catch {
      // A failed read is retried at the next tick; the sign-in itself is not affected.
    }
    const closed = this.#window?.closed ?? false;
    if (closed !== this.windowClosed) {
      this.windowClosed = closed;
      this.host.requestUpdate();
    }
    this.#schedule(key);
  }

  /** The failure's wording: the thrown error's when there is one, else what the status means. */
  #fail(status: SignInStatus, error?: unknown): void {
    this.hooks.failed(error === undefined ? signInProblem(status) : this.hooks.report(error));
  }

  #finish(): void {
    this.#stop();
    this.#closeWindow();
    this.phase = 'idle';
    this.url = null;
    this.host.requestUpdate();
  }

  #stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #closeWindow(): void {
    if (this.#window && !this.#window.closed) this.#window.close();
    this.#window = null;
  }
}
