import { msg, str } from '@lit/localize';
import {
  browserSupportsWebAuthn,
  platformAuthenticatorIsAvailable,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { html } from 'lit';
import type { MethodViewOf, PasskeyVerifyRequest } from '../../api/contract.js';
import { ApiError } from '../../api/session-client.js';
import { pluralMsg } from '../../internal/plural.js';
import { sharedStyles } from '../../internal/shared-styles.js';
import { StepElement } from '../step-element.js';
import { states } from '../../internal/lit-states.js';

type BiometricIdMethod = MethodViewOf<'biometric_id'>;

/** Whether the browser reads a relying party's related origins (WebAuthn Level 3 client capability). */
async function relatedOriginsSupported(): Promise<boolean> {
  const withCapabilities = PublicKeyCredential as unknown as { getClientCapabilities?: () => Promise<Record<string, boolean | undefined>> };
  try {
    return (await withCapabilities.getClientCapabilities?.())?.relatedOrigins === true;
  } catch {
    return false;
  }
}

/** `checking` until the browser answered; `unsupported` when this page cannot use a passkey. */
type Phase = 'checking' | 'ready' | 'unsupported';

/**
 * Biometric ID: the device's own fingerprint, face or PIN unlocks a passkey for this site. The
 * first time, the step creates one (the server records its attestation); when the method is
 * assigned again, the same passkey signs a fresh challenge. Nothing biometric leaves the device.
 */
export class VerifyStepBiometricId extends StepElement<BiometricIdMethod> {
  static override styles = [sharedStyles];
  static override properties = {
    ...StepElement.properties,
    ...states('phase'),
  };

  declare private phase: Phase;
  private readonly action = this.submitting((error) => this.explain(error), 5);

  constructor() {
    super();
    this.phase = 'checking';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.method) return;
    this.action.attemptsLeft = this.method.needs.attempts_left;
    void this.checkSupport();
  }

  /**
   * A passkey needs WebAuthn, a page on the relying party's host or one the relying party lists as
   * related (`/.well-known/webauthn`: the account's embedding origins, for inline `<verify-flow>`
   * on a customer's host, in browsers that read it), and, to create one, a platform authenticator.
   */
  private async checkSupport(): Promise<void> {
    const { rp_id, ceremony } = this.method.needs;
    const host = location.hostname;
    const onRpHost = host === rp_id || host.endsWith(`.${rp_id}`);
    let usable = browserSupportsWebAuthn() && (onRpHost || (await relatedOriginsSupported()));
    if (usable && ceremony === 'register') usable = await platformAuthenticatorIsAvailable();
    this.phase = usable ? 'ready' : 'unsupported';
  }

  private async run(): Promise<void> {
    await this.action.run(async () => {
      const { ceremony, options } = await this.client.passkeyOptions();
      const credential =
        ceremony === 'register'
          ? await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON })
          : await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
      const result = await this.client.verifyPasskey({ credential } as unknown as PasskeyVerifyRequest);
      this.complete(result);
    });
    if (this.action.error) {
      // Back on the same button, for the retry (it was disabled while the prompt was open).
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLButtonElement>('button#passkey-go')?.focus();
    }
  }

  private explain(error: unknown): string | undefined {
    if (error instanceof ApiError) {
      switch (error.error_type) {
        case 'session_passkey_invalid': {
          const left = this.action.wrongTry(error);
          return pluralMsg(left, 'passkey.invalid', {
            one: str`Your passkey could not be checked. ${left} try left.`,
            other: str`Your passkey could not be checked. ${left} tries left.`,
          });
        }
        case 'session_challenge_expired':
          return msg('The passkey prompt expired. Try again.', { id: 'passkey.expired' });
        case 'session_attempts_exceeded':
          this.action.ranOut(error);
          return msg('Too many failed tries. This step was stopped.', { id: 'passkey.exceeded' });
        default:
          return undefined;
      }
    }
    // The user closed the prompt, it timed out, or the device refused: nothing was sent, nothing changed.
    if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) {
      return msg('The passkey prompt was closed before it finished. Nothing was changed: try again when you are ready.', { id: 'passkey.cancelled' });
    }
    // The relying party does not list this page's origin as related: no passkey here.
    if (error instanceof Error && error.name === 'SecurityError') {
      this.phase = 'unsupported';
      return '';
    }
    if (error instanceof Error && error.name === 'InvalidStateError') {
      return msg('This device already holds a passkey for this verification. Use it, or try another device.', { id: 'passkey.exists' });
    }
    return undefined;
  }

  protected override render() {
    if (this.phase === 'checking') return html`<p role="status">${msg('Checking this device…', { id: 'passkey.checking' })}</p>`;
    if (this.phase === 'unsupported') return this.renderUnsupported();
    const register = this.method.needs.ceremony === 'register';
    return html`
      <p>
        ${
          register
            ? msg('Create a passkey on this device. Your fingerprint, face or screen lock confirms it is you; it never leaves the device.', {
                id: 'passkey.intro-register',
              })
            : msg('Confirm it is you with the passkey you created before, using your fingerprint, face or screen lock.', { id: 'passkey.intro-assert' })
        }
      </p>
      <p id="step-error" class="error" role="alert">${this.action.error}</p>
      <div class="actions">
        <button
          type="button"
          id="passkey-go"
          aria-describedby="step-error"
          ?disabled=${this.action.busy || this.action.attemptsLeft === 0}
          @click=${() => void this.run()}
        >
          ${register ? msg('Create a passkey', { id: 'passkey.create' }) : msg('Use my passkey', { id: 'passkey.use' })}
        </button>
      </div>
    `;
  }

  /** The flow itself offers the hand-off to another device below every step, when the account allows it. */
  private renderUnsupported() {
    return html`
      <p role="alert">
        ${msg('This browser or page cannot use a passkey. Open your verification link on a phone or computer with a fingerprint, face or screen lock.', {
          id: 'passkey.unsupported',
        })}
      </p>
    `;
  }
}
