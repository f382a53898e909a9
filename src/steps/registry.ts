/**
 * The widget's steps, one entry per method key: the one list `<verify-flow>` renders from. The
 * browser features each step needs are its line in `permissions.ts` (apart, so `<verify-button>`
 * builds the embed's iframe `allow` without loading the flow's code). Adding a method adds one
 * entry here, one line there (and its folder).
 */
import { msg } from '@lit/localize';
import { html, type TemplateResult } from 'lit';
import type { MethodKey, MethodView } from '../api/contract.js';
import { cardRejectionText } from './secure_card/card-messages.js';

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
  /** The step element for a method view (lit templates cannot take a tag from a variable). */
  render(method: MethodView): TemplateResult;
}

/** Every step, in no particular order (the template decides the flow's order). */
export const WEB_STEPS: readonly WebStep[] = [
  {
    key: 'email',
    tag: 'verify-step-email',
    load: () => import('./code/verify-step-code.js'),
    title: () => msg('Confirm your e-mail address', { id: 'method.email' }),
    render: (method) => html`<verify-step-email .method=${method}></verify-step-email>`,
  },
  {
    key: 'phone',
    tag: 'verify-step-phone',
    load: () => import('./code/verify-step-code.js'),
    title: () => msg('Confirm your phone number', { id: 'method.phone' }),
    render: (method) => html`<verify-step-phone .method=${method}></verify-step-phone>`,
  },
  {
    key: 'geolocation',
    tag: 'verify-step-geolocation',
    load: () => import('./geolocation/verify-step-geolocation.js'),
    title: () => msg('Share your location', { id: 'method.geolocation' }),
    render: (method) => html`<verify-step-geolocation .method=${method}></verify-step-geolocation>`,
  },
  {
    key: 'knowledge',
    tag: 'verify-step-knowledge',
    load: () => import('./knowledge/verify-step-knowledge.js'),
    title: () => msg('Answer a few questions', { id: 'method.knowledge' }),
    render: (method) => html`<verify-step-knowledge .method=${method}></verify-step-knowledge>`,
  },
  {
    key: 'document_id',
    tag: 'verify-step-document',
    load: () => import('./document/verify-step-document.js'),
    title: () => msg('Photograph your ID document', { id: 'method.document' }),
    biometric: true,
    render: (method) => html`<verify-step-document .method=${method}></verify-step-document>`,
  },
  {
    key: 'selfie',
    tag: 'verify-step-selfie',
    load: () => import('./selfie/verify-step-selfie.js'),
    title: () => msg('Take a selfie', { id: 'method.selfie' }),
    biometric: true,
    usesFaceModel: true,
    render: (method) => html`<verify-step-selfie .method=${method}></verify-step-selfie>`,
  },
  {
    key: 'liveness',
    tag: 'verify-step-liveness',
    load: () => import('./selfie/verify-step-selfie.js'),
    title: () => msg('Show that it is really you', { id: 'method.liveness' }),
    biometric: true,
    usesFaceModel: true,
    render: (method) => html`<verify-step-liveness .method=${method}></verify-step-liveness>`,
  },
  {
    key: 'secure_card',
    tag: 'verify-step-secure-card',
    load: () => import('./secure_card/verify-step-secure-card.js'),
    title: () => msg('Photograph your payment card', { id: 'method.secure_card' }),
    biometric: true,
    reasonText: cardRejectionText,
    render: (method) => html`<verify-step-secure-card .method=${method}></verify-step-secure-card>`,
  },
  {
    key: 'two_step',
    tag: 'verify-step-two-step',
    load: () => import('./two_step/verify-step-two-step.js'),
    title: () => msg('Turn on two-step authentication', { id: 'method.two_step' }),
    render: (method) => html`<verify-step-two-step .method=${method}></verify-step-two-step>`,
  },
  {
    key: 'biometric_id',
    tag: 'verify-step-biometric-id',
    load: () => import('./biometric_id/verify-step-biometric-id.js'),
    title: () => msg('Confirm it is you with a passkey', { id: 'method.biometric_id' }),
    render: (method) => html`<verify-step-biometric-id .method=${method}></verify-step-biometric-id>`,
  },
  {
    key: 'social_account',
    tag: 'verify-step-social-account',
    load: () => import('./social-account/verify-step-social-account.js'),
    title: () => msg('Sign in with an account you have', { id: 'method.social-account' }),
    render: (method) => html`<verify-step-social-account .method=${method}></verify-step-social-account>`,
  },
  {
    key: 'payment_account',
    tag: 'verify-step-payment-account',
    load: () => import('./payment-account/verify-step-payment-account.js'),
    title: () => msg('Confirm your payment account', { id: 'method.payment-account' }),
    render: (method) => html`<verify-step-payment-account .method=${method}></verify-step-payment-account>`,
  },
  {
    key: 'video',
    tag: 'verify-step-video',
    load: () => import('./video/verify-step-video.js'),
    title: () => msg('Record a short video of your face', { id: 'method.video' }),
    biometric: true,
    render: (method) => html`<verify-step-video .method=${method}></verify-step-video>`,
  },
  {
    key: 'voice',
    tag: 'verify-step-voice',
    load: () => import('./voice/verify-step-voice.js'),
    title: () => msg('Read a few digits aloud', { id: 'method.voice' }),
    biometric: true,
    render: (method) => html`<verify-step-voice .method=${method}></verify-step-voice>`,
    reasonText: (reason) =>
      (<Record<string, (() => string) | undefined>>{
        VOICE_NO_SPEECH: () => msg('No speech was heard in the recording. Read the digits aloud, close to the microphone.', { id: 'voice.reason.no-speech' }),
        VOICE_TOO_SHORT: () => msg('The recording was too short. Read all the digits before you stop.', { id: 'voice.reason.too-short' }),
        VOICE_TOO_QUIET: () => msg('The recording was too quiet. Speak louder or closer to the microphone.', { id: 'voice.reason.too-quiet' }),
        VOICE_DIGITS_MISMATCH: () => msg('The digits heard were not the ones shown. Read each digit clearly, one by one.', { id: 'voice.reason.mismatch' }),
      })[reason ?? '']?.() ?? null,
  },
  {
    key: 'bank',
    tag: 'verify-step-bank',
    load: () => import('./bank/verify-step-bank.js'),
    title: () => msg('Confirm your bank account', { id: 'method.bank' }),
    render: (method) => html`<verify-step-bank .method=${method}></verify-step-bank>`,
  },
  {
    key: 'live_video',
    tag: 'verify-step-live-video',
    load: () => import('./live_video/verify-step-live-video.js'),
    title: () => msg('Talk to an agent on video', { id: 'method.live_video' }),
    biometric: true,
    render: (method) => html`<verify-step-live-video .method=${method}></verify-step-live-video>`,
  },
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
