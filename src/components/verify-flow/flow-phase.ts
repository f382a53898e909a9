import type { MethodView } from '../../api/contract.js';

/** The flow's screens. */
export const FLOW_PHASE = {
  intro: 'intro',
  starting: 'starting',
  steps: 'steps',
  /** Consent before a biometric step (issue 24). */
  consent: 'consent',
  handoff: 'handoff',
  /** Everything sent; waiting for the analysis of it before completing (issue 22). */
  checking: 'checking',
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
