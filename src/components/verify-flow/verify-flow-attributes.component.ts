import { LitElement, type PropertyDeclarations } from 'lit';
import type { Branding, MethodKey } from '../../api/contract.js';

/**
 * The public attributes and properties of `<verify-flow>` with their defaults: what a page sets on
 * the element. Its behaviour is `VerifyFlow` (verify-flow.component.ts).
 */
export class VerifyFlowAttributes extends LitElement {
  static override properties: PropertyDeclarations = {
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
    checkWait: { type: Number, attribute: 'check-wait' },
    plannedSteps: { attribute: false },
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
  /**
   * Seconds the flow waits, once everything is sent, for the checks of what was sent (default 20),
   * so a refusal is shown while the user is still here; then it completes and the company is told.
   */
  declare checkWait: number;

  constructor() {
    super();
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
    this.checkWait = 20;
    this.plannedSteps = null;
  }
}
