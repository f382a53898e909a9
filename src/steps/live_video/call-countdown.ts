import { msg, str } from '@lit/localize';
import { css, html, LitElement, nothing, type PropertyValues } from 'lit';

/** From this many seconds left, the time is announced once to screen readers and shown as urgent. */
export const LAST_MINUTE_SECONDS = 60;

/** `m:ss` (or `h:mm:ss` past an hour). */
export function formatLeft(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

/**
 * The time left in a Live Video call, counting down from `seconds` (the server's `seconds_left`,
 * counted from when it arrived, so a device whose clock is off still shows the right time). A
 * timer (`role="timer"`, not read out every second); the last minute is announced once.
 * The server ends the call at the limit: this only shows it.
 */
export class VerifyCallCountdown extends LitElement {
  static override styles = css`
    :host {
      display: block;
      font-variant-numeric: tabular-nums;
    }
    .urgent {
      font-weight: 600;
    }
    .sr-only {
      position: absolute;
      inline-size: 1px;
      block-size: 1px;
      overflow: hidden;
      clip-path: inset(50%);
      white-space: nowrap;
    }
  `;
  static override properties = { seconds: { type: Number }, left: { state: true } };

  declare seconds: number;
  declare private left: number;
  #from = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor() {
    super();
    this.seconds = 0;
    this.left = 0;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#timer = setInterval(() => this.#tick(), 1000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.#timer);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('seconds')) {
      this.#from = performance.now();
      this.left = Math.max(0, this.seconds);
    }
  }

  #tick(): void {
    this.left = Math.max(0, this.seconds - (performance.now() - this.#from) / 1000);
  }

  protected override render() {
    const text = formatLeft(this.left);
    const urgent = this.left <= LAST_MINUTE_SECONDS;
    return html`<p class=${urgent ? 'urgent' : ''}>
        <span role="timer" aria-label=${msg('Time left in the call', { id: 'live-video.time-left-label' })}
          >${msg(str`Time left in the call: ${text}`, { id: 'live-video.time-left' })}</span
        >
      </p>
      <p class="sr-only" aria-live="polite">
        ${urgent && this.left > 0 ? msg('Less than a minute of the call is left.', { id: 'live-video.last-minute' }) : nothing}
      </p>`;
  }
}

if (!customElements.get('verify-call-countdown')) customElements.define('verify-call-countdown', VerifyCallCountdown);

declare global {
  interface HTMLElementTagNameMap {
    'verify-call-countdown': VerifyCallCountdown;
  }
}
