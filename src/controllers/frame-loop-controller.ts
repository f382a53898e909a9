import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * Runs a per-frame callback on `requestAnimationFrame` (camera analysis loops) and stops it
 * when asked, when the callback says so, or when the host leaves the DOM.
 */
export class FrameLoopController implements ReactiveController {
  #handle = 0;

  constructor(host: ReactiveControllerHost) {
    host.addController(this);
  }

  /** Calls `frame` once per animation frame until it returns false (or `stop()`); replaces a running loop. */
  start(frame: () => boolean): void {
    this.stop();
    const tick = (): void => {
      if (!frame()) {
        this.#handle = 0;
        return;
      }
      this.#handle = requestAnimationFrame(tick);
    };
    this.#handle = requestAnimationFrame(tick);
  }

  stop(): void {
    if (this.#handle) cancelAnimationFrame(this.#handle);
    this.#handle = 0;
  }

  hostDisconnected(): void {
    this.stop();
  }
}
