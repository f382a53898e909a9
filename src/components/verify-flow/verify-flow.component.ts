import { ContextProvider } from '@lit/context';
import { msg, updateWhenLocaleChanges } from '@lit/localize';
import { html, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { VerifyFlowAttributes } from './verify-flow-attributes.component.js';
import type { MethodView, SessionView } from '../../api/contract.js';
import { ApiError } from '../../api/session-client.js';
import { FaceModelController } from '../../controllers/face-model-controller.js';
import { RedirectCountdown } from '../../controllers/redirect-countdown.js';
import { ProgressStore, progressIdForLink } from '../../controllers/progress-store.js';
import { progressPercent, resolveApiBase, resolveAssetBase } from './flow-session.js';
import { FlowSessionController } from './flow-session-controller.js';
import { emitError, entryIndex, FlowNavigation } from './flow-navigation.js';
import { emit, VerifyError } from '../../events/events.js';
import { fromApiError } from '../../internal/errors.js';
import { flowContext, type FlowContext } from '../../internal/flow-context.js';
import { StepCompleteEvent, StepErrorEvent, StepHandoffEvent, StepHandoffOfferEvent } from '../../internal/step-events.js';
import { directionOf, pickLocale, useLocale, type Locale } from '../../localization.js';
import { stepFor } from '../../steps/registry.js';
import type { ConsentDecisionEvent } from '../../steps/consent/verify-consent.component.js';
import { brandingStyle, paintFlow } from './branding-style.js';
import { FLOW_PHASE, isMethodDone, type FlowPhase } from './flow-phase.js';
import { renderHeader, renderIntro } from './intro-view.js';
import { renderDone, renderFailure, renderHandedBack, renderHandoff, renderLoading } from './result-views.js';
import { liveAnnouncement, renderRejected, renderStep, renderStepDone, renderStepsScreen } from './step-views.js';
import { FlowChecks } from './flow-checks.js';
import { renderChecking } from './checking-view.js';
import styles from './verify-flow.styles.js';

/**
 * The whole verification inline: loads the session from the magic link, shows each assigned
 * method as a step with progress, lets the user go back, and finishes with the result and the
 * completion redirect (or stays, with `stay`).
 *
 * @tagname verify-flow
 * @summary The inline verification flow.
 *
 * @event verify-ready - The session loaded. `detail: { methods }`.
 * @event verify-start - The user started. `detail: { mode: 'inline' }`.
 * @event verify-step-change - Another step is shown. `detail: { index, total, method, previous }`.
 * @event verify-complete - Finished. `detail: { reference_id, status: 'completed', redirect_url }`.
 * @event verify-error - Something failed, or the user declined consent before a biometric step (`code: 'consent_declined'`, retryable: the consent can be read again). `detail: { code, message, retryable }`.
 * @event verify-request-close - Cancelable; the user pressed Close on the result (with `closable`). `detail: { source }`.
 *
 * @csspart base - The flow's wrapper.
 * @csspart header - The header with the logo.
 * @csspart progress - The "Step n of m" line and bar.
 * @csspart step - The current step's container.
 * @csspart result - The result screen.
 *
 * @cssproperty --verify-primary - Brand colour.
 * @cssproperty --verify-on-primary - Text on the brand colour.
 * @cssproperty --verify-background - Flow background.
 * @cssproperty --verify-text - Text colour.
 * @cssproperty --verify-muted - Secondary text colour.
 * @cssproperty --verify-danger - Error colour.
 * @cssproperty --verify-radius - Corner radius.
 * @cssproperty --verify-font - Font family.
 * @cssproperty --verify-focus - Focus ring colour.
 */
export class VerifyFlow extends VerifyFlowAttributes {
  static override styles = styles;

  static override properties: PropertyDeclarations = {
    phase: { type: String, reflect: true },
    index: { state: true },
    stepOffersHandoff: { state: true },
    failure: { state: true },
    notice: { state: true },
    locale: { state: true },
  };

  private readonly countdown = new RedirectCountdown(this);
  /** The current screen (read-only). */
  declare phase: FlowPhase;
  declare private index: number;
  /** The step on screen shows its own hand-off button (StepHandoffOfferEvent): no link then. */
  declare private stepOffersHandoff: boolean;
  declare private failure: VerifyError | null;
  declare private notice: string;
  declare private locale: Locale;
  /** The session, its client and saved progress (issue 19: loading aborts with the element). */
  private readonly flowSession = new FlowSessionController(this);
  private readonly nav = new FlowNavigation(this, {
    session: this.flowSession,
    stepIndex: () => this.index,
    showStep: (index, consent) => {
      this.notice = '';
      // Another step's offer does not hold for this one (a step tells its own on its first update).
      if (index !== this.index) this.stepOffersHandoff = false;
      this.index = index;
      this.phase = consent ? FLOW_PHASE.consent : FLOW_PHASE.steps;
    },
    shown: (method) => this.checks.seen(method.key),
    follow: () => this.checks.follow(),
    focusSoon: (selector) => this.focusSoon(selector),
    fail: (error) => this.fail(error),
    finish: () => this.finish(),
  });
  private readonly checks = new FlowChecks(this, {
    client: () => this.flowSession.client,
    session: () => this.flowSession.view,
    setSession: (session) => (this.flowSession.view = session),
    listening: () => this.phase !== FLOW_PHASE.handoff && this.phase !== FLOW_PHASE.completing,
    checking: () => this.phase === FLOW_PHASE.checking,
    completed: () => this.phase === FLOW_PHASE.done,
    reopen: () => {
      // No redirect while the user is told: the retry is theirs to take.
      this.countdown.stop();
      this.phase = FLOW_PHASE.checking;
    },
    onScreen: () => (this.phase === FLOW_PHASE.steps ? this.currentMethod?.key : undefined),
    finish: () => void this.finish(),
  });

  private completion: { reference_id: string | null; redirect_url: string | null } | null = null;
  private readonly provider = new ContextProvider(this, { context: flowContext, initialValue: undefined });
  private readonly faceModels = new FaceModelController(this);

  constructor() {
    super();
    updateWhenLocaleChanges(this);
    this.phase = FLOW_PHASE.intro;
    this.index = 0;
    this.stepOffersHandoff = false;
    this.failure = null;
    this.notice = '';
    this.locale = 'en';
  }

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    const root = super.createRenderRoot();
    // Steps report with non-composed events: they reach the shadow root, never the page.
    root.addEventListener(StepCompleteEvent.eventName, (e) => {
      e.stopPropagation();
      void this.nav.afterStep((e as StepCompleteEvent).result);
    });
    root.addEventListener(StepErrorEvent.eventName, (e) => this.onStepError(e as StepErrorEvent));
    root.addEventListener(StepHandoffEvent.eventName, () => this.showHandoff());
    root.addEventListener(StepHandoffOfferEvent.eventName, (e) => (this.stepOffersHandoff = (e as StepHandoffOfferEvent).offered));
    return root;
  }

  /** The session as last read (null before start). */
  get currentSession(): SessionView | null {
    return this.flowSession.view;
  }

  /** The locale in use (one of the shipped locales). */
  get currentLocale(): Locale {
    return this.locale;
  }

  /** Whether the on-device face model has started loading (it does once the session lists a face step). */
  get faceModelStarted(): boolean {
    return this.faceModels.started;
  }

  /** The method of the step on screen. */
  get currentMethod(): MethodView | null {
    return this.flowSession.view?.methods[this.index] ?? null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.applyLocale();
    // Only from the intro: moving the element in the page must not start a second session. A
    // session still opening when the element left was aborted: it opens again now.
    if ((this.autoStart && this.phase === FLOW_PHASE.intro) || (this.phase === FLOW_PHASE.starting && this.flowSession.interrupted)) void this.start();
  }

  /**
   * After a reload, a flow this link had already started goes on where it was, without pressing
   * Start again: its progress is in the store. A link never started, a preview or a hand-off (its
   * token is single use) waits for Start.
   */
  private async resumeIfStarted(): Promise<void> {
    if (this.preview || this.handoff || !this.link) return;
    const saved = await new ProgressStore(progressIdForLink(this.link)).load();
    if (saved && this.phase === FLOW_PHASE.intro && this.isConnected) await this.start();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('language')) void this.applyLocale();
    if (changed.has('link') && !this.autoStart && this.phase === FLOW_PHASE.intro) void this.resumeIfStarted();
  }

  private async applyLocale(): Promise<void> {
    const locale = pickLocale(this.language, this.flowSession.view?.locale, navigator.language);
    try {
      await useLocale(locale);
    } catch {
      // A locale module failed to load: keep English rather than break the flow.
      return;
    }
    this.locale = locale;
  }

  /** Starts the session (what the intro's Start button does). */
  async start(): Promise<void> {
    if (this.preview) {
      // A preview has no link and no session: nothing is sent anywhere.
      this.notice = msg('This is a preview: nothing is started or sent.', { id: 'flow.preview' });
      return;
    }
    if (this.phase === FLOW_PHASE.starting && this.flowSession.loading) return;
    this.phase = FLOW_PHASE.starting;
    this.failure = null;
    emit(this, 'verify-start', { mode: 'inline' });
    const opening = this.flowSession.open(resolveApiBase(this.apiBase, this.link), { handoff: this.handoff, link: this.link });
    this.provider.setValue(this.contextValue(false));
    try {
      const opened = await opening;
      // Aborted: the element left the page (it opens again when it comes back), nothing changes.
      if (opened) await this.begin(opened.session, entryIndex(opened.session, opened.saved));
    } catch (error: unknown) {
      // The link's flow was already completed: nothing starts, and the person is told they are done.
      if (error instanceof ApiError && error.error_type === 'session_flow_completed') {
        this.phase = FLOW_PHASE.done;
        await this.focusSoon('#result-title');
        return;
      }
      this.fail(fromApiError(error));
    }
  }

  /** The session opened: the steps from `entry` (the saved or first open step), or the end. */
  private async begin(session: SessionView, entry: number): Promise<void> {
    this.provider.setValue(this.contextValue(session.handoff_enabled && !session.via_handoff));
    if (!this.language) await this.applyLocale();
    emit(this, 'verify-ready', { methods: session.methods.map((m) => m.key) });
    // A face step ahead: its model starts loading now, in a worker, while the person reads on (issue 20).
    if (session.methods.some((m) => !isMethodDone(m) && stepFor(m.key)?.usesFaceModel)) this.faceModels.get(this.assetBase_());
    if (session.state === 'completed') {
      this.phase = FLOW_PHASE.done;
      return;
    }
    this.checks.follow();
    if (entry < 0) {
      await this.finish();
      return;
    }
    // goTo() shows the steps once the step's module has loaded.
    await this.goTo(entry);
  }

  /** Shows step `index` (0-based). */
  async goTo(index: number): Promise<void> {
    await this.nav.goTo(index);
  }

  private contextValue(handoffEnabled: boolean): FlowContext {
    return {
      client: this.flowSession.client!,
      assetBase: this.assetBase_(),
      handoffEnabled,
      choices: this.flowSession.choices,
      faceModel: () => this.faceModels.get(this.assetBase_()),
      saveChoice: (name, value) => this.flowSession.saveChoice(name, value, this.currentMethod),
    };
  }

  /** Models and wasm of this flow's service. */
  private assetBase_(): string {
    return resolveAssetBase(this.assetBase, this.flowSession.client!.baseUrl);
  }

  /** Focuses `selector` once the next render is done (a new screen's heading). */
  private async focusSoon(selector: string): Promise<void> {
    await this.updateComplete;
    (this.renderRoot.querySelector(selector) as HTMLElement | null)?.focus();
  }

  private onStepError(event: StepErrorEvent): void {
    event.stopPropagation();
    const { error } = event;
    emitError(this, error);
    if (error.code === 'session_expired') this.fail(error);
  }

  /** The consent screen's decision: on to the step, or a clean way out (`verify-error` `consent_declined`). */
  private async onConsent(event: ConsentDecisionEvent): Promise<void> {
    event.stopPropagation();
    this.flowSession.view = event.session;
    if (event.decision === 'given') await this.goTo(this.index);
    else this.fail(new VerifyError('consent_declined', 'The user did not consent to the biometric steps.', 'error', true));
  }

  private showHandoff(): void {
    const session = this.flowSession.view;
    if (!session?.handoff_enabled || session.via_handoff) return;
    this.phase = FLOW_PHASE.handoff;
    void this.focusSoon('#handoff-title');
    void import('../../steps/handoff/verify-handoff.js');
  }

  private async onHandoffSession(event: CustomEvent<SessionView>): Promise<void> {
    event.stopPropagation();
    const session = event.detail;
    this.flowSession.view = session;
    if (session.state === 'ready_to_complete' || session.state === 'completed') await this.finish();
  }

  private async finish(): Promise<void> {
    const session = this.flowSession.view;
    if (!this.flowSession.client || !session || this.phase === FLOW_PHASE.completing || this.phase === FLOW_PHASE.done) return;
    if (session.via_handoff) {
      // The phone side: the desktop that handed off completes and redirects.
      this.phase = FLOW_PHASE.handedBack;
      await this.flowSession.clearProgress();
      return;
    }
    if (this.checks.hold(session, this.checkWait)) {
      if (this.phase === FLOW_PHASE.checking) return;
      this.phase = FLOW_PHASE.checking;
      this.checks.follow();
      return this.focusSoon('#checking-title');
    }
    this.checks.release();
    this.phase = FLOW_PHASE.completing;
    try {
      this.completion = await this.flowSession.complete();
      this.phase = FLOW_PHASE.done;
      await this.flowSession.clearProgress();
      emit(this, 'verify-complete', { reference_id: this.completion.reference_id, status: 'completed', redirect_url: this.completion.redirect_url });
      await this.focusSoon('#result-title');
      if (this.completion.redirect_url && !this.stay) this.countdown.start(this.completion.redirect_url, this.redirectDelay);
    } catch (error: unknown) {
      this.fail(fromApiError(error));
    }
  }

  private fail(error: VerifyError): void {
    this.failure = error;
    this.phase = FLOW_PHASE.failed;
    emitError(this, error);
    void this.focusSoon('#failure-title');
  }

  private onClose(): void {
    emit(this, 'verify-request-close', { source: 'close-button' });
  }

  /** Branding colours and the progress bar's width, through the CSSOM (see `paintFlow`). */
  protected override updated(): void {
    const open = this.currentMethod !== null && !isMethodDone(this.currentMethod);
    const session = this.flowSession.view;
    paintFlow(this.renderRoot, brandingStyle(session?.branding ?? this.branding, this, this.applyBranding), session ? progressPercent(session, open) : null);
  }

  protected override render() {
    const dir = directionOf(this.locale);
    const session = this.flowSession.view;
    return html`
      <div part="base" class="flow" dir=${dir} lang=${this.locale}>
        ${renderHeader(session?.branding ?? this.branding)}
        <!-- Not a <main>: the page around the flow (ours or the customer's) has its own. -->
        <div class="phase">${this.renderPhase()}</div>
        <div class="visually-hidden" role="status" aria-live="polite">${liveAnnouncement(this.phase, this.index, session, this.currentMethod)}</div>
      </div>
    `;
  }

  private renderPhase(): TemplateResult {
    switch (this.phase) {
      case FLOW_PHASE.intro:
        return renderIntro({ plannedSteps: this.plannedSteps, preview: this.preview, notice: this.notice, onStart: () => void this.start() });
      case FLOW_PHASE.starting:
      case FLOW_PHASE.completing:
        return renderLoading();
      case FLOW_PHASE.steps:
      case FLOW_PHASE.consent:
        return this.renderSteps();
      case FLOW_PHASE.handoff:
        return renderHandoff({ onSession: (e) => void this.onHandoffSession(e), onBack: () => void this.goTo(this.index) });
      case FLOW_PHASE.done:
        return renderDone({
          redirectUrl: this.completion?.redirect_url ?? null,
          stay: this.stay,
          secondsLeft: this.countdown.secondsLeft,
          closable: this.closable,
          onClose: () => this.onClose(),
        });
      case FLOW_PHASE.handedBack:
        return renderHandedBack();
      case FLOW_PHASE.checking:
        return renderChecking({
          refused: this.checks.refused,
          handoff: Boolean(this.flowSession.view?.handoff_enabled && !this.flowSession.view.via_handoff),
          onRetry: (method) => void this.nav.retry(method, true),
          onHandoff: () => this.showHandoff(),
        });
      case FLOW_PHASE.failed:
        return renderFailure({
          error: this.failure,
          closable: this.closable,
          // Declining consent is left cleanly: read it again, or close (modal) / leave the page.
          onAgain: () => void (this.failure?.code === 'consent_declined' ? this.goTo(this.index) : this.start()),
          onClose: () => this.onClose(),
        });
    }
  }

  private renderSteps(): TemplateResult {
    const session = this.flowSession.view!;
    const method = this.currentMethod!;
    return renderStepsScreen({
      session,
      index: this.index,
      consent: this.phase === FLOW_PHASE.consent,
      refused: this.checks.refused,
      body: () => this.renderStepBody(method, isMethodDone(method)),
      onGo: (index) => void this.goTo(index),
      onConsent: (e) => void this.onConsent(e),
      onHandoff: () => this.showHandoff(),
      stepOffersHandoff: this.stepOffersHandoff,
    });
  }

  private renderStepBody(method: MethodView, done: boolean): TemplateResult {
    if (done) {
      const next = this.flowSession.view!.methods.findIndex((m) => !isMethodDone(m));
      return renderStepDone(method, next, () => void this.goTo(next));
    }
    return method.status === 'rejected' ? renderRejected(method, () => void this.nav.retry(method)) : renderStep(method);
  }
}
