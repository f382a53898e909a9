import { ContextProvider } from '@lit/context';
import { msg, str, updateWhenLocaleChanges } from '@lit/localize';
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { Branding, MethodKey, MethodResult, MethodView, SessionView } from '../../api/contract.js';
import { ApiError, SessionClient } from '../../api/session-client.js';
import { FaceModelController } from '../../controllers/face-model-controller.js';
import { ProgressStore, progressIdForLink } from '../../controllers/progress-store.js';
import { emit, VerifyError } from '../../events/events.js';
import { fromApiError } from '../../internal/errors.js';
import { flowContext, type FlowContext } from '../../internal/flow-context.js';
import { StepCompleteEvent, StepErrorEvent, StepHandoffEvent } from '../../internal/step-events.js';
import { directionOf, pickLocale, useLocale, type Locale } from '../../localization.js';
import { needsConsent, stepFor, stepTitle } from '../../steps/registry.js';
import type { ConsentDecisionEvent } from '../../steps/consent/verify-consent.component.js';
import { failureText } from './failure-text.js';
import { renderLiveRefusal } from './live-refusal.js';
import { AnalysisWatch } from '../../controllers/analysis-watch.js';
import styles from './verify-flow.styles.js';

/** The flow's screens. */
export const FLOW_PHASE = {
  intro: 'intro',
  starting: 'starting',
  steps: 'steps',
  /** Consent before a biometric step (issue 24). */
  consent: 'consent',
  handoff: 'handoff',
  completing: 'completing',
  done: 'done',
  handedBack: 'handed-back',
  failed: 'failed',
} as const;
/** One of {@link FLOW_PHASE}. */
export type FlowPhase = (typeof FLOW_PHASE)[keyof typeof FLOW_PHASE];

/** Statuses that count as done for the flow (submitted or decided). */
export function isMethodDone(method: MethodView): boolean {
  return method.status === 'complete' || method.status === 'complete_in_review' || method.status === 'processing';
}

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
export class VerifyFlow extends LitElement {
  static override styles = styles;

  static override properties = {
    link: { type: String },
    handoff: { type: String },
    apiBase: { type: String, attribute: 'api-base' },
    assetBase: { type: String, attribute: 'asset-base' },
    language: { type: String, attribute: 'lang' },
    stay: { type: Boolean },
    autoStart: { type: Boolean, attribute: 'auto-start' },
    applyBranding: { type: Boolean, attribute: 'apply-branding' },
    branding: { attribute: false },
    preview: { type: Boolean },
    closable: { type: Boolean },
    redirectDelay: { type: Number, attribute: 'redirect-delay' },
    plannedSteps: { attribute: false },
    phase: { type: String, reflect: true },
    redirectIn: { state: true },
    session: { state: true },
    index: { state: true },
    failure: { state: true },
    notice: { state: true },
    locale: { state: true },
    result: { state: true },
    refused: { state: true },
  };

  /** The user's `magic_link`. */
  declare link: string;
  /** A cross-device hand-off token (the phone side); used instead of `link`. */
  declare handoff: string;
  /** The service's `{base_url}`; defaults to the link's origin, else this page's origin. */
  declare apiBase: string;
  /** Base URL of models and wasm; defaults to `{apiBase}/web/vendor/`. */
  declare assetBase: string;
  /** Locale (BCP 47), from the `lang` attribute; defaults to the session's hint, then the browser's. */
  declare language: string;
  /** Stay on the result screen instead of following the completion redirect. */
  declare stay: boolean;
  /** Skip the intro screen and start at once. */
  declare autoStart: boolean;
  /** Apply the account's branding colours from the session (the hosted page does). */
  declare applyBranding: boolean;
  /**
   * Branding to show before the session loads (the hosted page passes the account's, so its intro
   * is branded too); the session's branding replaces it once loaded. Applied with `apply-branding`.
   */
  declare branding: Branding | null;
  /**
   * A preview of the page (the dashboard's branding preview): Start sends nothing and starts
   * nothing, and says so.
   */
  declare preview: boolean;
  /** Offer a Close button on the result screen (modal / popup embeds). */
  declare closable: boolean;
  /**
   * The steps this link's user will meet, in order (the hosted page passes them from the server),
   * so the intro says what they will do and what to have at hand; unknown: a general intro.
   */
  declare plannedSteps: readonly MethodKey[] | null;
  /** Seconds the "you are done" screen shows before the completion redirect (default 4). */
  declare redirectDelay: number;
  /** Seconds left before the redirect, while counting down. */
  declare private redirectIn: number | null;
  private redirectTimer: ReturnType<typeof setInterval> | undefined;
  /** The current screen (read-only). */
  declare phase: FlowPhase;
  declare private session: SessionView | null;
  declare private index: number;
  declare private failure: VerifyError | null;
  declare private notice: string;
  declare private locale: Locale;
  declare private result: MethodResult | null;
  /** A method the server refused after it was sent, shown live until the user goes to it. */
  declare private refused: MethodView | null;
  private readonly analysis = new AnalysisWatch(this);

  private client: SessionClient | null = null;
  private store: ProgressStore | null = null;
  private completion: { reference_id: string | null; redirect_url: string | null } | null = null;
  private readonly provider = new ContextProvider(this, { context: flowContext, initialValue: undefined });
  private readonly faceModels = new FaceModelController(this);
  private lastAnnouncedIndex = -1;

  constructor() {
    super();
    updateWhenLocaleChanges(this);
    this.link = '';
    this.handoff = '';
    this.apiBase = '';
    this.assetBase = '';
    this.language = '';
    this.stay = false;
    this.autoStart = false;
    this.applyBranding = false;
    this.branding = null;
    this.preview = false;
    this.closable = false;
    this.redirectDelay = 4;
    this.plannedSteps = null;
    this.redirectIn = null;
    this.phase = FLOW_PHASE.intro;
    this.session = null;
    this.index = 0;
    this.failure = null;
    this.notice = '';
    this.locale = 'en';
    this.result = null;
    this.refused = null;
  }

  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    const root = super.createRenderRoot();
    // Steps report with non-composed events: they reach the shadow root, never the page.
    root.addEventListener(StepCompleteEvent.eventName, (e) => void this.onStepComplete(e as StepCompleteEvent));
    root.addEventListener(StepErrorEvent.eventName, (e) => this.onStepError(e as StepErrorEvent));
    root.addEventListener(StepHandoffEvent.eventName, () => this.showHandoff());
    return root;
  }

  /** The session as last read (null before start). */
  get currentSession(): SessionView | null {
    return this.session;
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
    return this.session?.methods[this.index] ?? null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.applyLocale();
    // Only from the intro: moving the element in the page must not start a second session.
    if (this.autoStart && this.phase === FLOW_PHASE.intro) void this.start();
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
    const locale = pickLocale(this.language, this.session?.locale, navigator.language);
    try {
      await useLocale(locale);
    } catch {
      // A locale module failed to load: keep English rather than break the flow.
      return;
    }
    this.locale = locale;
  }

  private resolveApiBase(): string {
    if (this.apiBase) return this.apiBase;
    try {
      if (this.link) return new URL(this.link).origin;
    } catch {
      // Fall through to the page's origin.
    }
    return window.location.origin;
  }

  private resolveAssetBase(apiBase: string): string {
    const base = this.assetBase || `${apiBase.replace(/\/+$/, '')}/web/vendor/`;
    return base.endsWith('/') ? base : `${base}/`;
  }

  /** Starts the session (what the intro's Start button does). */
  async start(): Promise<void> {
    if (this.preview) {
      // A preview has no link and no session: nothing is sent anywhere.
      this.notice = msg('This is a preview: nothing is started or sent.', { id: 'flow.preview' });
      return;
    }
    if (this.phase === FLOW_PHASE.starting) return;
    this.phase = FLOW_PHASE.starting;
    this.failure = null;
    emit(this, 'verify-start', { mode: 'inline' });
    const apiBase = this.resolveApiBase();
    this.client = new SessionClient({ baseUrl: apiBase });
    this.provider.setValue(this.contextValue(false));
    try {
      let session: SessionView;
      if (this.handoff) session = (await this.client.claimHandoff(this.handoff)).session;
      else if (this.link) session = (await this.client.start(this.link)).session;
      else session = await this.client.session();
      this.store = new ProgressStore(this.handoff ? `handoff:${session.csrf_token.slice(0, 8)}` : this.link ? progressIdForLink(this.link) : 'hosted');
      await this.loadSession(session);
    } catch (error: unknown) {
      // The link's flow was already completed: nothing starts, and the person is told they are done.
      if (error instanceof ApiError && error.error_type === 'session_flow_completed') {
        this.phase = FLOW_PHASE.done;
        await this.updateComplete;
        (this.renderRoot.querySelector('#result-title') as HTMLElement | null)?.focus();
        return;
      }
      this.fail(fromApiError(error));
    }
  }

  private async loadSession(session: SessionView): Promise<void> {
    this.session = session;
    const saved = await this.store?.load();
    this.choices = { ...(saved?.choices ?? {}) };
    this.provider.setValue(this.contextValue(session.handoff_enabled && !session.via_handoff));
    if (!this.language) await this.applyLocale();
    emit(this, 'verify-ready', { methods: session.methods.map((m) => m.key) });
    // A face step ahead: its model starts loading now, in a worker, while the person reads on (issue 20).
    if (session.methods.some((m) => !isMethodDone(m) && stepFor(m.key)?.usesFaceModel)) this.faceModels.get(this.resolveAssetBase(this.client!.baseUrl));
    if (session.state === 'completed') {
      this.phase = FLOW_PHASE.done;
      return;
    }
    this.watchAnalysis();
    const firstOpen = session.methods.findIndex((m) => !isMethodDone(m));
    const savedIndex = saved ? session.methods.findIndex((m) => m.key === saved.method && !isMethodDone(m)) : -1;
    if (firstOpen < 0) {
      await this.finish();
      return;
    }
    // goTo() shows the steps once the step's module has loaded.
    await this.goTo(savedIndex >= 0 ? savedIndex : firstOpen);
  }

  /** Shows step `index` (0-based). */
  async goTo(index: number): Promise<void> {
    const methods = this.session?.methods ?? [];
    if (index < 0 || index >= methods.length) return;
    const previous = this.currentMethod?.key ?? null;
    const method = methods[index]!;
    this.notice = '';
    try {
      await stepFor(method.key)?.load();
    } catch (error: unknown) {
      this.fail(new VerifyError('network', msg('Part of the page could not be loaded.', { id: 'flow.chunk-failed' }), 'error', true, { cause: error }));
      return;
    }
    this.index = index;
    if (this.refused?.key === method.key) this.refused = null;
    // A biometric step waits for consent to the current text; its routes refuse without it too.
    const consent = needsConsent(method.key) && !isMethodDone(method) && !this.session?.consent.given;
    if (consent) await import('../../steps/consent/verify-consent.js');
    this.phase = consent ? FLOW_PHASE.consent : FLOW_PHASE.steps;
    void this.store?.save({ method: method.key, choices: this.choices });
    if (!consent) this.recordStart(method);
    if (this.lastAnnouncedIndex !== index) {
      this.lastAnnouncedIndex = index;
      emit(this, 'verify-step-change', { index, total: methods.length, method: method.key, previous: previous === method.key ? null : previous });
    }
    await this.updateComplete;
    (this.renderRoot.querySelector('#step-title') as HTMLElement | null)?.focus();
  }

  private readonly started = new Set<string>();
  private choices: Record<string, string> = {};

  private contextValue(handoffEnabled: boolean): FlowContext {
    return {
      client: this.client!,
      assetBase: this.resolveAssetBase(this.client!.baseUrl),
      handoffEnabled,
      choices: this.choices,
      faceModel: () => this.faceModels.get(this.resolveAssetBase(this.client!.baseUrl)),
      saveChoice: (name, value) => {
        this.choices = { ...this.choices, [name]: value };
        void this.store?.save({ method: this.currentMethod?.key ?? null, choices: this.choices });
      },
    };
  }

  /** Tells the server a step was opened (its `start_time`), once per method and page. */
  private recordStart(method: MethodView): void {
    if (method.key === 'other' || isMethodDone(method) || method.status === 'rejected' || this.started.has(method.key) || !this.client) return;
    this.started.add(method.key);
    this.client.startMethod(method.key).catch((error: unknown) => {
      // Not fatal for the user; the flow goes on and the submit reports real problems.
      this.started.delete(method.key);
      const mapped = fromApiError(error);
      if (mapped.code === 'session_expired') this.fail(mapped);
    });
  }

  /** Puts a rejected method back to `assigned` (when the server allows a retry). */
  private async retryMethod(method: MethodView): Promise<void> {
    if (!this.client || method.key === 'other') return;
    try {
      const result = await this.client.retryMethod(method.key);
      this.replaceMethod(result.method, result.state);
      this.recordStart(result.method);
    } catch (error: unknown) {
      const mapped = fromApiError(error);
      emit(this, 'verify-error', { code: mapped.code, message: mapped.message, retryable: mapped.retryable });
    }
  }

  private replaceMethod(method: MethodView, state: SessionView['state']): void {
    const session = this.session;
    if (!session) return;
    this.session = { ...session, state, methods: session.methods.map((m) => (m.key === method.key ? method : m)) };
  }

  private async onStepComplete(event: StepCompleteEvent): Promise<void> {
    event.stopPropagation();
    const session = this.session;
    if (!session) return;
    const { method, state } = event.result;
    session.methods = session.methods.map((m) => (m.key === method.key ? method : m));
    session.state = state;
    this.session = { ...session };
    this.watchAnalysis();
    if (state === 'ready_to_complete' || state === 'completed' || session.methods.every(isMethodDone)) {
      await this.finish();
      return;
    }
    const next = session.methods.findIndex((m, i) => i > this.index && !isMethodDone(m));
    const wrap = next >= 0 ? next : session.methods.findIndex((m) => !isMethodDone(m));
    if (wrap >= 0) await this.goTo(wrap);
  }

  private onStepError(event: StepErrorEvent): void {
    event.stopPropagation();
    const { error } = event;
    emit(this, 'verify-error', { code: error.code, message: error.message, retryable: error.retryable });
    if (error.code === 'session_expired') this.fail(error);
  }

  /** Follows the progress stream while something sent is being checked, to show a refusal live. */
  private watchAnalysis(): void {
    if (this.client && this.session) this.analysis.follow(this.client, this.session, (next, refused) => this.onLiveSession(next, refused));
  }

  private onLiveSession(next: SessionView, refused: MethodView[]): void {
    const session = this.session;
    if (!session || this.phase === FLOW_PHASE.done || this.phase === FLOW_PHASE.handoff) return;
    // Only methods whose status moved are replaced: the step on screen keeps its own object.
    const moved = (m: MethodView) => next.methods.find((n) => n.key === m.key && n.status !== m.status);
    this.session = { ...session, state: next.state, methods: session.methods.map((m) => moved(m) ?? m) };
    const first = refused[0];
    if (!first) return;
    this.refused = first;
    emit(this, 'verify-error', { code: 'method_rejected', message: first.reason ?? 'A step was not accepted.', retryable: first.can_retry });
  }

  /** The consent screen's decision: on to the step, or a clean way out (`verify-error` `consent_declined`). */
  private async onConsent(event: ConsentDecisionEvent): Promise<void> {
    event.stopPropagation();
    this.session = event.session;
    if (event.decision === 'given') await this.goTo(this.index);
    else this.fail(new VerifyError('consent_declined', 'The user did not consent to the biometric steps.', 'error', true));
  }

  private showHandoff(): void {
    if (!this.session?.handoff_enabled || this.session.via_handoff) return;
    this.phase = FLOW_PHASE.handoff;
    void this.updateComplete.then(() => (this.renderRoot.querySelector('#handoff-title') as HTMLElement | null)?.focus());
    void import('../../steps/handoff/verify-handoff.js');
  }

  private async onHandoffSession(event: CustomEvent<SessionView>): Promise<void> {
    event.stopPropagation();
    const session = event.detail;
    this.session = session;
    if (session.state === 'ready_to_complete' || session.state === 'completed') await this.finish();
  }

  private async finish(): Promise<void> {
    if (!this.client || !this.session) return;
    if (this.session.via_handoff) {
      // The phone side: the desktop that handed off completes and redirects.
      this.phase = FLOW_PHASE.handedBack;
      await this.store?.clear();
      return;
    }
    this.phase = FLOW_PHASE.completing;
    try {
      const done = await this.client.complete();
      this.completion = { reference_id: done.reference_id, redirect_url: safeRedirect(done.redirect_url) };
      this.session = { ...this.session, state: 'completed' };
      this.phase = FLOW_PHASE.done;
      await this.store?.clear();
      emit(this, 'verify-complete', { reference_id: done.reference_id, status: 'completed', redirect_url: this.completion.redirect_url });
      await this.updateComplete;
      (this.renderRoot.querySelector('#result-title') as HTMLElement | null)?.focus();
      if (this.completion.redirect_url && !this.stay) this.countDownToRedirect(this.completion.redirect_url);
    } catch (error: unknown) {
      this.fail(fromApiError(error));
    }
  }

  /**
   * The "you are done" screen stays long enough to be read, then the page follows the completion
   * redirect; its link goes at once. Counted in whole seconds so the screen can say how long.
   */
  private countDownToRedirect(url: string): void {
    this.redirectIn = Math.max(0, Math.round(this.redirectDelay));
    const tick = () => {
      if (this.redirectIn === null) return;
      if (this.redirectIn <= 0) {
        this.stopRedirect();
        window.location.assign(url);
        return;
      }
      this.redirectIn -= 1;
    };
    if (this.redirectIn === 0) return tick();
    this.redirectTimer = setInterval(tick, 1000);
  }

  private stopRedirect(): void {
    clearInterval(this.redirectTimer);
    this.redirectTimer = undefined;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // A flow taken out of the page (a closed modal) does not move the page any more.
    this.stopRedirect();
    this.redirectIn = null;
  }

  private fail(error: VerifyError): void {
    this.failure = error;
    this.phase = FLOW_PHASE.failed;
    emit(this, 'verify-error', { code: error.code, message: error.message, retryable: error.retryable });
    void this.updateComplete.then(() => (this.renderRoot.querySelector('#failure-title') as HTMLElement | null)?.focus());
  }

  private onClose(): void {
    emit(this, 'verify-request-close', { source: 'close-button' });
  }

  /**
   * Branding colours and the progress bar width are set through the CSSOM after each render: the
   * hosted page's strict CSP blocks `style` attributes (Lit's attribute bindings and even
   * styleMap's first render use setAttribute), while `style.setProperty` is allowed.
   */
  protected override updated(): void {
    const base = this.renderRoot.querySelector<HTMLElement>('[part="base"]');
    if (base) {
      const style = this.brandingStyle();
      for (const name of ['--verify-primary', '--verify-background', '--verify-text']) {
        if (style[name]) base.style.setProperty(name, style[name]);
        else base.style.removeProperty(name);
      }
    }
    const fill = this.renderRoot.querySelector<HTMLElement>('.fill');
    if (fill && this.session) {
      const total = this.session.methods.length;
      const done = this.session.methods.filter(isMethodDone).length;
      // The step on screen counts half while it is open: "Step 1 of 1" is under way, not empty.
      const current = this.currentMethod && !isMethodDone(this.currentMethod) ? 0.5 : 0;
      fill.style.setProperty('inline-size', `${(100 * Math.min(total, done + current)) / total}%`);
    }
  }

  /**
   * The account's branding colours as custom properties. A page that themes the flow itself (sets
   * `--verify-primary`, `--verify-background` or `--verify-text` on it or above it) keeps its own
   * value for that property; `apply-branding` puts the account's first anyway (the hosted page).
   */
  private brandingStyle(): Record<string, string> {
    const b = this.session?.branding ?? this.branding;
    if (!b) return {};
    const page = getComputedStyle(this);
    const style: Record<string, string> = {};
    const take = (name: string, value: string | null) => {
      if (value && (this.applyBranding || page.getPropertyValue(name).trim() === '')) style[name] = value;
    };
    take('--verify-primary', b.primary_color);
    take('--verify-background', b.background_color);
    take('--verify-text', b.text_color);
    return style;
  }

  protected override render() {
    const dir = directionOf(this.locale);
    return html`
      <div part="base" class="flow" dir=${dir} lang=${this.locale}>
        ${this.renderHeader()}
        <!-- Not a <main>: the page around the flow (ours or the customer's) has its own. -->
        <div class="phase">${this.renderPhase()}</div>
        <div class="visually-hidden" role="status" aria-live="polite">${this.liveText()}</div>
      </div>
    `;
  }

  private liveText(): string {
    if ((this.phase === FLOW_PHASE.steps || this.phase === FLOW_PHASE.consent) && this.session) {
      return msg(str`Step ${this.index + 1} of ${this.session.methods.length}: ${stepTitle(this.currentMethod!)}`, { id: 'flow.live-step' });
    }
    if (this.phase === FLOW_PHASE.starting || this.phase === FLOW_PHASE.completing) return msg('Loading…', { id: 'flow.loading' });
    return '';
  }

  private renderHeader(): TemplateResult | typeof nothing {
    const branding = this.session?.branding ?? this.branding;
    if (!branding) return nothing;
    // The account's logo says who is asking, inline as on the hosted page.
    const logo = branding.logo_url ? html`<img class="logo" src=${branding.logo_url} alt=${branding.account_name} />` : nothing;
    return html`<header part="header">${logo}<span class="account">${logo === nothing ? branding.account_name : ''}</span></header>`;
  }

  /** What this user will do and what to have at hand, when the steps are known. */
  private renderPlan(): TemplateResult {
    const steps = this.plannedSteps;
    const minutes = msg('It takes a few minutes.', { id: 'flow.intro.minutes' });
    if (!steps?.length) return html`<p>${minutes} ${msg('Allow camera access if a step asks for it.', { id: 'flow.intro.generic' })}</p>`;
    const has = (...keys: MethodKey[]) => keys.some((k) => steps.includes(k));
    const ready = [
      has('document_id') ? msg('your ID document', { id: 'flow.intro.ready.document' }) : null,
      has('email') ? msg('your e-mail, to receive a code', { id: 'flow.intro.ready.email' }) : null,
      has('phone') ? msg('your phone, to receive a code', { id: 'flow.intro.ready.phone' }) : null,
      has('document_id', 'selfie', 'liveness') ? msg('a camera (allow access when asked)', { id: 'flow.intro.ready.camera' }) : null,
    ].filter((x): x is string => x !== null);
    return html`<p>${minutes} ${msg('You will be asked to:', { id: 'flow.intro.steps' })}</p>
      <ol class="plan">
        ${steps.map((k) => html`<li>${stepFor(k)?.title() ?? k}</li>`)}
      </ol>
      ${
        ready.length
          ? html`<p>${msg('Have ready:', { id: 'flow.intro.ready' })}</p>
              <ul class="plan">
                ${ready.map((r) => html`<li>${r}</li>`)}
              </ul>`
          : nothing
      }`;
  }

  private renderPhase(): TemplateResult {
    switch (this.phase) {
      case FLOW_PHASE.intro:
        return html`<section class="intro">
          <h2>${msg('Verify your identity', { id: 'flow.intro.title' })}</h2>
          ${this.renderPlan()}
          <p class="muted">${msg('Your information is sent securely and used only to verify you.', { id: 'flow.intro.privacy' })}</p>
          <div class="actions"><button type="button" @click=${() => void this.start()}>${msg('Start', { id: 'flow.start' })}</button></div>
          ${this.preview ? html`<p class="muted" role="status">${this.notice}</p>` : nothing}
        </section>`;
      case FLOW_PHASE.starting:
      case FLOW_PHASE.completing:
        return html`<div class="loading" aria-busy="true"><span class="spinner" aria-hidden="true"></span>${msg('Loading…', { id: 'flow.loading' })}</div>`;
      case FLOW_PHASE.steps:
      case FLOW_PHASE.consent:
        return this.renderSteps();
      case FLOW_PHASE.handoff:
        return html`<section>
          <h2 id="handoff-title" tabindex="-1">${msg('Continue on your phone', { id: 'flow.handoff.title' })}</h2>
          <verify-handoff @handoff-session=${(e: CustomEvent<SessionView>) => void this.onHandoffSession(e)}></verify-handoff>
          <div class="actions">
            <button type="button" class="secondary" @click=${() => void this.goTo(this.index)}>
              ${msg('Continue on this device', { id: 'flow.handoff.back' })}
            </button>
          </div>
        </section>`;
      case FLOW_PHASE.done:
        return this.renderDone();
      case FLOW_PHASE.handedBack:
        return html`<section part="result" class="result">
          <h2 id="result-title" tabindex="-1">${msg('All done on this phone', { id: 'flow.handed-back.title' })}</h2>
          <p>${msg('You can go back to your computer to finish.', { id: 'flow.handed-back.body' })}</p>
        </section>`;
      case FLOW_PHASE.failed:
        return this.renderFailure();
    }
  }

  private renderSteps(): TemplateResult {
    const session = this.session!;
    const method = this.currentMethod!;
    const total = session.methods.length;
    const done = isMethodDone(method);
    const refused = this.refused;
    const refusedAt = refused ? session.methods.findIndex((m) => m.key === refused.key) : -1;
    return html`
      ${refused ? renderLiveRefusal(refused, () => void this.goTo(refusedAt)) : nothing}
      <div part="progress" class="progress">
        <span>${msg(str`Step ${this.index + 1} of ${total}`, { id: 'flow.progress' })}</span>
        <div
          class="bar"
          role="progressbar"
          aria-label=${msg('Progress', { id: 'flow.progress-label' })}
          aria-valuemin="0"
          aria-valuemax=${total}
          aria-valuenow=${session.methods.filter(isMethodDone).length}
        >
          <div class="fill"></div>
        </div>
      </div>
      <section part="step" class="step" aria-labelledby="step-title">
        ${
          this.phase === FLOW_PHASE.consent
            ? html`<h2 id="step-title" tabindex="-1">${msg('Before we use your camera', { id: 'consent.title' })}</h2>
                <verify-consent .consent=${session.consent} @consent-decision=${(e: ConsentDecisionEvent) => void this.onConsent(e)}></verify-consent>`
            : html`<h2 id="step-title" tabindex="-1">${stepTitle(method)}</h2>
                ${done ? this.renderStepDone() : method.status === 'rejected' ? this.renderRejected(method) : this.renderStep(method)}`
        }
      </section>
      <nav class="nav" aria-label=${msg('Steps', { id: 'flow.nav' })}>
        ${this.index > 0 ? html`<button type="button" class="secondary" @click=${() => void this.goTo(this.index - 1)}>${msg('Back', { id: 'flow.back' })}</button>` : nothing}
        ${session.handoff_enabled && !session.via_handoff ? html`<button type="button" class="link" @click=${() => this.showHandoff()}>${msg('Continue on another device', { id: 'flow.handoff.offer' })}</button>` : nothing}
      </nav>
    `;
  }

  private renderRejected(method: MethodView): TemplateResult {
    return html`<div class="notice" role="alert">
        <p>${method.reason ?? msg('This step could not be verified.', { id: 'flow.step-rejected' })}</p>
      </div>
      <div class="actions">
        ${
          method.can_retry
            ? html`<button type="button" @click=${() => void this.retryMethod(method)}>${msg('Try this step again', { id: 'flow.step-retry' })}</button>`
            : html`<p class="muted">${msg('The service will contact you about this step.', { id: 'flow.step-rejected-final' })}</p>`
        }
      </div>`;
  }

  private renderStepDone(): TemplateResult {
    const next = this.session!.methods.findIndex((m) => !isMethodDone(m));
    const checking = this.currentMethod?.status === 'processing';
    return html`<p class="notice">
        ${checking ? msg('Sent. It is being checked; if it is not accepted, you will see it here.', { id: 'flow.step-checking' }) : msg('This step is done.', { id: 'flow.step-done' })}
      </p>
      <div class="actions">
        ${next >= 0 ? html`<button type="button" @click=${() => void this.goTo(next)}>${msg('Continue', { id: 'flow.continue' })}</button>` : nothing}
      </div>`;
  }

  private renderStep(method: MethodView): TemplateResult {
    return (
      stepFor(method.key)?.render(method) ??
      html`<p class="notice">${msg('This step cannot be done on this page. The service will contact you about it.', { id: 'flow.step-other' })}</p>`
    );
  }

  private renderDone(): TemplateResult {
    const redirecting = this.completion?.redirect_url && !this.stay;
    return html`<section part="result" class="result">
      <div class="check" aria-hidden="true">✓</div>
      <h2 id="result-title" tabindex="-1">${msg('Thank you, you are done', { id: 'flow.done.title' })}</h2>
      <p>${msg('We have received everything we need. You will hear from us when the checks are complete.', { id: 'flow.done.body' })}</p>
      ${
        redirecting && this.redirectIn !== null
          ? html`<p class="muted" role="status">${msg(str`Taking you back in ${this.redirectIn} s…`, { id: 'flow.done.redirecting-in' })}</p>`
          : nothing
      }
      ${
        this.completion?.redirect_url
          ? html`<div class="actions"><a class="button" href=${this.completion.redirect_url}>${msg('Return to the site', { id: 'flow.done.return' })}</a></div>`
          : nothing
      }
      ${this.closable ? html`<div class="actions"><button type="button" @click=${this.onClose}>${msg('Close', { id: 'flow.close' })}</button></div>` : nothing}
    </section>`;
  }

  private renderFailure(): TemplateResult {
    const error = this.failure;
    const text = failureText(error?.code);
    // Declining consent is left cleanly: read it again, or close (modal) / leave the page.
    const again = () => void (error?.code === 'consent_declined' ? this.goTo(this.index) : this.start());
    return html`<section part="result" class="result failed" role="alert">
      <h2 id="failure-title" tabindex="-1">${text.title}</h2>
      <p>${text.body}</p>
      <div class="actions">
        ${error?.retryable ? html`<button type="button" @click=${again}>${text.retry}</button>` : nothing}
        ${this.closable && error?.code === 'consent_declined' ? html`<button type="button" class="secondary" @click=${this.onClose}>${msg('Close', { id: 'flow.close' })}</button>` : nothing}
      </div>
    </section>`;
  }
}

/** Only http(s) redirect targets are followed. */
export function safeRedirect(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}
