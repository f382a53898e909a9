import type { MethodKey } from '../api/routes.js';

/** A browser feature a step's capture needs (the embed iframe's `allow`). */
export type StepPermission = 'camera' | 'geolocation' | 'microphone' | 'publickey-credentials-create' | 'publickey-credentials-get';

/**
 * The browser features each step needs: the permissions column of the step registry
 * (`registry.ts`), kept apart so `<verify-button>` reads it without loading the flow's code.
 */
export const STEP_PERMISSIONS: Record<MethodKey, readonly StepPermission[]> = {
  email: [],
  phone: [],
  geolocation: ['geolocation'],
  knowledge: [],
  document_id: ['camera'],
  selfie: ['camera'],
  liveness: ['camera'],
  two_step: [],
  biometric_id: ['publickey-credentials-create', 'publickey-credentials-get'],
  social_account: [],
  payment_account: [],
  video: ['camera'],
  voice: ['microphone'],
  bank: [],
  secure_card: ['camera'],
  live_video: ['camera', 'microphone'],
};

/** The iframe `allow` list of the embed: every feature some step needs, e.g. `camera; geolocation`. */
export function iframeAllow(): string {
  return [...new Set(Object.values(STEP_PERMISSIONS).flat())].sort().join('; ');
}

/**
 * {@link iframeAllow} as the script-tag embed ships it: written out, because the table above
 * would cost `<verify-button>` bytes of its 8 KB budget. The registry test holds the two equal,
 * so a method that needs a new feature fails it until this line says so too.
 */
export const EMBED_IFRAME_ALLOW = 'camera; geolocation; microphone; publickey-credentials-create; publickey-credentials-get';
