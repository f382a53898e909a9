/**
 * What a flow's biometric steps capture, so that the consent screen names exactly that: a
 * template with a payment card and a voice step is not asked about "document and face". Small and
 * without the consent element, because the flow's own bundle titles the screen; the texts the
 * consent element shows are in `consent-texts.ts`, loaded with it.
 */
import { msg } from '@lit/localize';
import type { MethodKey } from '../../api/routes.js';

/** One kind of capture a consent covers, in the order the screen lists them. */
export const CAPTURES = ['document', 'face', 'card', 'voice', 'call'] as const;
export type Capture = (typeof CAPTURES)[number];

const BY_METHOD: Partial<Record<MethodKey, Capture>> = {
  document_id: 'document',
  selfie: 'face',
  liveness: 'face',
  video: 'face',
  secure_card: 'card',
  voice: 'voice',
  live_video: 'call',
};

/** The captures of these methods (those that need consent), each once, in {@link CAPTURES} order. */
export function capturesOf(keys: readonly (MethodKey | 'other')[]): Capture[] {
  const found = new Set(keys.map((k) => (k === 'other' ? undefined : BY_METHOD[k])));
  return CAPTURES.filter((c) => found.has(c));
}

const usesCamera = (c: Capture) => c !== 'voice';
const usesMicrophone = (c: Capture) => c === 'voice' || c === 'call';

/** The consent screen's title: the device(s) these captures use. */
export function consentTitle(captures: readonly Capture[]): string {
  const camera = captures.length === 0 || captures.some(usesCamera);
  const microphone = captures.some(usesMicrophone);
  if (camera && microphone) return msg('Before we use your camera and microphone', { id: 'consent.title-both' });
  if (microphone) return msg('Before we use your microphone', { id: 'consent.title-microphone' });
  return msg('Before we use your camera', { id: 'consent.title' });
}
