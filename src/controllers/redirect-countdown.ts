import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * The "you are done" screen's countdown to the completion redirect: counted in whole seconds so the
 * screen can say how long, stopped when the host leaves the page (a closed modal must not move the
 * page any more).
 */
export class RedirectCountdown implements ReactiveController {
  /** Seconds left, while counting down; null otherwise. */
  secondsLeft: number | null = null;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  /** Counts `delaySeconds` down, then goes to `url`. */
  start(url: string, delaySeconds: number): void {
    this.stop();
    this.secondsLeft = Math.max(0, Math.round(delaySeconds));
    const tick = () => {
      if (this.secondsLeft === null) return;
      if (this.secondsLeft <= 0) {
        this.stop();
        window.location.assign(url);
        return;
      }
      this.secondsLeft -= 1;
      this.host.requestUpdate();
    };
    this.host.requestUpdate();
    if (this.secondsLeft === 0) return tick();
    this.#timer = setInterval(tick, 1000);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  hostDisconnected(): void {
    this.stop();
    this.secondsLeft = null;
  }
}
