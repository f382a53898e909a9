import { msg, str } from '@lit/localize';
import { html, nothing } from 'lit';
import type { MethodViewOf } from '../../api/contract.js';
import { sharedStyles } from '../../internal/shared-styles.js';
import { SignInController } from '../oidc/sign-in-controller.js';
import { signInProblem, waitingView } from '../oidc/sign-in-texts.js';
import { StepElement } from '../step-element.js';

/**
 * Social Account: the user signs in with one of the account's OpenID Connect providers in a
 * window of its own; the step follows the sign-in through the session and moves on when the
 * provider has vouched for the account.
 */
export class VerifyStepSocialAccount extends StepElement<MethodViewOf<'social_account'>> {
  static override styles = [sharedStyles];
  static override properties = { ...StepElement.properties, problem: { state: true }, provider: { state: true } };

  declare private problem: string;
  /** The provider being signed in with (its name in the waiting text). */
  declare private provider: string;
  private readonly signIn = new SignInController(this, {
    client: () => this.client,
    finished: (result) => this.complete(result),
    report: (error) => this.report(error).message,
    failed: (problem) => (this.problem = problem),
  });

  constructor() {
    super();
    this.problem = '';
    this.provider = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.method) this.problem = signInProblem(this.method.needs.sign_in);
  }

  private choose(id: number, name: string): void {
    this.problem = '';
    this.provider = name;
    void this.signIn.start('social_account', id);
  }

  protected override render() {
    const { providers, sign_ins_left: left } = this.method.needs;
    if (this.signIn.phase === 'waiting') return waitingView(this.signIn, this.provider, () => void this.signIn.cancel('social_account'));
    return html`
      <p>
        ${msg(
          'Sign in with an account you already have. We record which account it is and compare its e-mail address with yours; we never see your password.',
          {
            id: 'social.intro',
          },
        )}
      </p>
      ${this.problem ? html`<p class="error" role="alert">${this.problem}</p>` : nothing}
      ${
        providers.length === 0
          ? html`<p class="error" role="alert">
              ${msg('No sign-in provider is set up for this step. Please contact the service that sent you here.', { id: 'social.none' })}
            </p>`
          : nothing
      }
      ${left === 0 ? html`<p class="error" role="alert">${msg('Too many sign-ins in the last hour. Please try again later.', { id: 'signin.limit' })}</p>` : nothing}
      <div class="actions">
        ${providers.map(
          (p) => html`
            <button type="button" ?disabled=${this.signIn.phase !== 'idle' || left === 0} @click=${() => this.choose(p.id, p.name)}>
              ${msg(str`Continue with ${p.name}`, { id: 'signin.continue' })}
            </button>
          `,
        )}
      </div>
    `;
  }
}
