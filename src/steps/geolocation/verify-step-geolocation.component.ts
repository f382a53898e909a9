import { msg, str } from '@lit/localize';
import { html, nothing } from 'lit';
import type { MethodViewOf } from '../../api/contract.js';
import { ApiError } from '../../api/session-client.js';
import { VerifyError } from '../../events/events.js';
import { sharedStyles } from '../../internal/shared-styles.js';
import { StepElement } from '../step-element.js';
import { states } from '../../internal/lit-states.js';

/** Why the browser gave no position. */
export type GeolocationProblem = 'denied' | 'timeout' | 'unavailable' | 'unsupported';

/** Maps a `GeolocationPositionError` code to our problem names. */
export function geolocationProblem(error: { code: number }): GeolocationProblem {
  if (error.code === 1) return 'denied';
  if (error.code === 3) return 'timeout';
  return 'unavailable';
}

/**
 * Geolocation: explains why, asks the browser for the position, submits it; handles denial and
 * time-outs with a way forward.
 */
export class VerifyStepGeolocation extends StepElement<MethodViewOf<'geolocation'>> {
  static override styles = [sharedStyles];
  static override properties = {
    ...StepElement.properties,
    ...states('problem'),
  };

  declare private problem: GeolocationProblem | null;
  /** The submit; its message is the server's refusal (outside the allowed countries, say). */
  private readonly action = this.submitting((error) => this.explain(error));

  constructor() {
    super();
    this.problem = null;
  }

  private position(): Promise<GeolocationPosition> {
    return new Promise((resolve, reject) => {
      if (!('geolocation' in navigator)) {
        reject(Object.assign(new Error('unsupported'), { code: 2 }));
        return;
      }
      navigator.geolocation.getCurrentPosition(resolve, reject, {
        enableHighAccuracy: this.method.needs.high_accuracy,
        timeout: this.method.needs.timeout_ms,
        maximumAge: 0,
      });
    });
  }

  /** Asks for the position and submits it. */
  async share(): Promise<void> {
    await this.action.run(async () => {
      this.problem = null;
      let position: GeolocationPosition;
      try {
        position = await this.position();
      } catch (error: unknown) {
        const problem = 'geolocation' in navigator ? geolocationProblem(error as { code: number }) : 'unsupported';
        this.problem = problem;
        const code = problem === 'denied' ? 'geolocation_denied' : problem === 'timeout' ? 'geolocation_timeout' : 'geolocation_unavailable';
        this.report(new VerifyError(code, `Geolocation ${problem}`, 'warning', true, { cause: error }));
        return;
      }
      this.complete(
        await this.client.submitGeolocation({
          latitude: position.coords.latitude,
          longitude: position.coords.longitude,
          accuracy: position.coords.accuracy,
          timestamp: position.timestamp,
        }),
      );
    });
  }

  /** The server's refusal in its own words (the flow is told too); other errors are the flow's. */
  private explain(error: unknown): string | undefined {
    if (!(error instanceof ApiError) || error.error_type !== 'session_location_rejected') return undefined;
    this.report(error);
    return error.error_message;
  }

  private problemText(): string {
    switch (this.problem) {
      case 'denied':
        return msg('Location access was blocked. Allow location for this site in your browser settings (the icon next to the address), then try again.', {
          id: 'geo.denied',
        });
      case 'timeout':
        return msg('Finding your location took too long. Move closer to a window or turn on Wi-Fi, then try again.', { id: 'geo.timeout' });
      case 'unsupported':
        return msg('This browser cannot share a location. Try another browser or continue on your phone.', { id: 'geo.unsupported' });
      default:
        return msg('Your location is not available right now. Check that location services are on, then try again.', { id: 'geo.unavailable' });
    }
  }

  protected override render() {
    const countries = this.method.needs.allowed_countries;
    return html`
      <p>${msg('We check that you are where you say you are. Your browser will ask to share your location once.', { id: 'geo.intro' })}</p>
      ${countries?.length ? html`<p class="muted">${msg(str`Accepted countries: ${countries.join(', ')}.`, { id: 'geo.countries' })}</p>` : nothing}
      ${this.problem ? html`<p class="error" role="alert">${this.problemText()}</p>` : nothing}
      ${this.action.error ? html`<p class="error" role="alert">${this.action.error}</p>` : nothing}
      <div class="actions">
        <button
          type="button"
          ?disabled=${this.action.busy || this.method.status === 'rejected'}
          aria-busy=${this.action.busy ? 'true' : 'false'}
          @click=${() => void this.share()}
        >
          ${this.problem ? msg('Try again', { id: 'geo.retry' }) : msg('Share my location', { id: 'geo.share' })}
        </button>
      </div>
    `;
  }
}
