/**
 * The widget's steps, one entry per method key: the one list `<verify-flow>` renders from. The
 * browser features each step needs are its line in `permissions.ts` (apart, so `<verify-button>`
 * builds the embed's iframe `allow` without loading the flow's code). Adding a method adds its
 * line and its title here, one line there (and its folder).
 */
import { html, type TemplateResult } from 'lit';
import { Directive, directive } from 'lit/directive.js';
import type { MethodKey, MethodView } from '../api/contract.js';
import { localize, localizeKnown, messageTable } from '../internal/message-table.js';
import { cardRejectionText } from './secure_card/card-messages.js';
import { faceRefusalText } from './selfie/face-reasons.js';
import { VOICE_REASONS } from './voice/voice-reasons.js';

/** One method's step in the widget. */
export interface WebStep {
  readonly key: MethodKey;
  /** The step element's tag (`verify-step-<key>`). */
  readonly tag: `verify-step-${string}`;
  /** Imports the module that defines the element, on demand: the flow's first bundle carries no step. */
  load(): Promise<unknown>;
  /** The localised title of the step. */
  title(): string;
  /**
   * True when its capture is biometric (face, voice, an identity document's portrait): the flow
   * asks for consent before it (issue 24). A new camera, microphone or biometric step opts in here,
   * as its server method does (`ServerMethod.biometric`).
   */
  readonly biometric?: boolean;
  /** Uses the on-device face model: the flow starts loading it (off the page's thread) when the session begins. */
  readonly usesFaceModel?: boolean;
  /** The user-facing text of a refusal reason the method's server gives as a code (`CARD_EXPIRED`), else null. */
  readonly reasonText?: (reason: string | null) => string | null;
  /** The step element for a method view. */
  render(method: MethodView): TemplateResult;
}

/** Each step's title, keyed by its method (ids `method.<key>`). */
export const STEP_TITLES = messageTable<MethodKey>('method', {
  email: 'Confirm your e-mail address',
  phone: 'Confirm your phone number',
  geolocation: 'Share your location',
  knowledge: 'Answer a few questions',
  document_id: 'Photograph your ID document',
  selfie: 'Take a selfie',
  liveness: 'Show that it is really you',
  secure_card: 'Photograph your payment card',
  two_step: 'Turn on two-step authentication',
  biometric_id: 'Confirm it is you with a passkey',
  social_account: 'Sign in with an account you have',
  payment_account: 'Confirm your payment account',
  video: 'Record a short video of your face',
  voice: 'Read a few digits aloud',
  bank: 'Confirm your bank account',
  live_video: 'Talk to an agent on video',
});

/**
 * Puts the step element of `tag` in its place with `.method` set, as `html\`<verify-step-x
 * .method=…>\`` would (lit templates cannot take a tag from a variable): the element is kept while
 * the tag stays the same, so a re-render or a retry of the same step keeps its state.
 */
class StepElementDirective extends Directive {
  private element: (HTMLElement & { method?: MethodView }) | undefined;

  render(tag: string, method: MethodView): HTMLElement {
    if (this.element?.localName !== tag) this.element = document.createElement(tag);
    this.element.method = method;
    return this.element;
  }
}
const stepElement = directive(StepElementDirective);

/** A registry entry: the tag is `verify-step-<key>` with dashes unless `more.tag` names another; the title is the key's in {@link STEP_TITLES}. */
function step(key: MethodKey, load: () => Promise<unknown>, more: Partial<Pick<WebStep, 'tag' | 'biometric' | 'usesFaceModel' | 'reasonText'>> = {}): WebStep {
  const tag = more.tag ?? `verify-step-${key.replaceAll('_', '-')}`;
  return { key, load, ...more, tag, title: () => localize(STEP_TITLES, key), render: (method) => html`${stepElement(tag, method)}` };
}

const BIOMETRIC = { biometric: true } as const;

/** Every step, in no particular order (the template decides the flow's order). */
export const WEB_STEPS: readonly WebStep[] = [
  step('email', () => import('./code/verify-step-code.js')),
  step('phone', () => import('./code/verify-step-code.js')),
  step('geolocation', () => import('./geolocation/verify-step-geolocation.js')),
  step('knowledge', () => import('./knowledge/verify-step-knowledge.js')),
  step('document_id', () => import('./document_id/verify-step-document.js'), { ...BIOMETRIC, tag: 'verify-step-document' }),
  step('selfie', () => import('./selfie/verify-step-selfie.js'), { ...BIOMETRIC, usesFaceModel: true, reasonText: faceRefusalText }),
  step('liveness', () => import('./selfie/verify-step-selfie.js'), { ...BIOMETRIC, usesFaceModel: true, reasonText: faceRefusalText }),
  step('secure_card', () => import('./secure_card/verify-step-secure-card.js'), { ...BIOMETRIC, reasonText: cardRejectionText }),
  step('two_step', () => import('./two_step/verify-step-two-step.js')),
  step('biometric_id', () => import('./biometric_id/verify-step-biometric-id.js')),
  step('social_account', () => import('./social_account/verify-step-social-account.js')),
  step('payment_account', () => import('./payment_account/verify-step-payment-account.js')),
  step('video', () => import('./video/verify-step-video.js'), BIOMETRIC),
  step('voice', () => import('./voice/verify-step-voice.js'), { ...BIOMETRIC, reasonText: (reason) => localizeKnown(VOICE_REASONS, reason) }),
  step('bank', () => import('./bank/verify-step-bank.js')),
  step('live_video', () => import('./live_video/verify-step-live-video.js'), BIOMETRIC),
];

/** The step of a method key; undefined for `other` (a method this page cannot perform). */
export function stepFor(key: MethodKey | 'other'): WebStep | undefined {
  return WEB_STEPS.find((s) => s.key === key);
}

/** Whether the step of `key` needs consent first (a biometric capture). */
export function needsConsent(key: MethodKey | 'other'): boolean {
  return stepFor(key)?.biometric === true;
}

/** The localised title of a method's step (the method's own name for `other`). */
export function stepTitle(method: MethodView): string {
  return stepFor(method.key)?.title() ?? method.name;
}

/** A rejection's reason in the user's words when the step knows the server's code, else as the server gave it. */
export function rejectionText(method: MethodView): string | null {
  return stepFor(method.key)?.reasonText?.(method.reason) ?? method.reason;
}
