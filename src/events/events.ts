/**
 * Public events of `<verify-button>` and `<verify-flow>`: all prefixed `verify-`, bubbling and
 * composed, declared in `HTMLElementEventMap` so `addEventListener` is typed.
 */
import type { MethodKey } from '../api/routes.js';

/** The closed set of error codes carried by `verify-error`. */
export const VERIFY_ERROR_CODES = [
  'link_invalid',
  'link_expired',
  'link_revoked',
  'session_expired',
  'network',
  'rate_limited',
  'camera_permission_denied',
  'camera_not_found',
  'camera_in_use',
  'camera_insecure_context',
  'camera_unsupported',
  'geolocation_denied',
  'geolocation_timeout',
  'geolocation_unavailable',
  'upload_invalid',
  'popup_blocked',
  'method_rejected',
  'consent_declined',
  'consent_required',
  'internal',
] as const;
/** One of {@link VERIFY_ERROR_CODES}. */
export type VerifyErrorCode = (typeof VERIFY_ERROR_CODES)[number];

/** How bad an error is for the flow. */
export const SEVERITY = { warning: 'warning', error: 'error', fatal: 'fatal' } as const;
/** One of {@link SEVERITY}. */
export type Severity = (typeof SEVERITY)[keyof typeof SEVERITY];

/** An error the widget reports, with a closed `code`. */
export class VerifyError extends Error {
  override readonly name = 'VerifyError';
  constructor(
    readonly code: VerifyErrorCode,
    message: string,
    readonly severity: Severity = 'error',
    readonly retryable = false,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** How `<verify-button>` opens the flow, or `inline` for `<verify-flow>`. */
export type OpenMode = 'redirect' | 'modal' | 'popup' | 'inline';
/** What asked to close a modal / popup. */
export type CloseSource = 'close-button' | 'escape' | 'overlay' | 'complete' | 'flow';

/** `detail` of `verify-ready`. */
export interface VerifyReadyDetail {
  /** Method keys of the session in flow order (`other` for methods this page cannot do). */
  methods: Array<MethodKey | 'other'>;
}
/** `detail` of `verify-start`. */
export interface VerifyStartDetail {
  mode: OpenMode;
}
/** `detail` of `verify-step-change`. */
export interface VerifyStepChangeDetail {
  /** 0-based index of the new step. */
  index: number;
  total: number;
  method: MethodKey | 'other';
  previous: MethodKey | 'other' | null;
}
/** `detail` of `verify-complete`. */
export interface VerifyCompleteDetail {
  reference_id: string | null;
  status: 'completed';
  redirect_url: string | null;
}
/** `detail` of `verify-error`. */
export interface VerifyErrorDetail {
  code: VerifyErrorCode;
  message: string;
  retryable: boolean;
}
/** `detail` of the cancelable `verify-request-close`. */
export interface VerifyRequestCloseDetail {
  source: CloseSource;
}

/** Map of public event names to their detail types. */
export interface VerifyEventDetails {
  'verify-ready': VerifyReadyDetail;
  'verify-start': VerifyStartDetail;
  'verify-step-change': VerifyStepChangeDetail;
  'verify-complete': VerifyCompleteDetail;
  'verify-error': VerifyErrorDetail;
  'verify-request-close': VerifyRequestCloseDetail;
}
/** A public event name. */
export type VerifyEventName = keyof VerifyEventDetails;

declare global {
  interface HTMLElementEventMap {
    'verify-ready': CustomEvent<VerifyReadyDetail>;
    'verify-start': CustomEvent<VerifyStartDetail>;
    'verify-step-change': CustomEvent<VerifyStepChangeDetail>;
    'verify-complete': CustomEvent<VerifyCompleteDetail>;
    'verify-error': CustomEvent<VerifyErrorDetail>;
    'verify-request-close': CustomEvent<VerifyRequestCloseDetail>;
  }
}

/**
 * Dispatches a public event from `host`: bubbling and composed; only `verify-request-close` is
 * cancelable. Returns false when a listener called `preventDefault()`.
 */
export function emit<K extends VerifyEventName>(host: HTMLElement, name: K, detail: VerifyEventDetails[K]): boolean {
  return host.dispatchEvent(new CustomEvent(name, { bubbles: true, composed: true, cancelable: name === 'verify-request-close', detail }));
}

/**
 * Messages between the hosted page (in the modal iframe or popup) and `<verify-button>`.
 * Always sent with an explicit target origin and checked against an exact origin on receipt.
 */
export type EmbedMessage =
  | { source: 'verity'; type: 'ready' }
  | { source: 'verity'; type: 'step-change'; detail: VerifyStepChangeDetail }
  | { source: 'verity'; type: 'complete'; detail: VerifyCompleteDetail }
  | { source: 'verity'; type: 'error'; detail: VerifyErrorDetail }
  | { source: 'verity'; type: 'close' };

/** Narrows an unknown `MessageEvent.data` to an {@link EmbedMessage}. */
export function isEmbedMessage(data: unknown): data is EmbedMessage {
  if (typeof data !== 'object' || data === null) return false;
  // Unknown `type`s are ignored by the receiver's switch; only the envelope is checked here.
  const record = data as Record<string, unknown>;
  return record.source === 'verity' && typeof record.type === 'string';
}
