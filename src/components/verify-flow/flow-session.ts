import type { SessionView } from '../../api/contract.js';
import type { SessionClient } from '../../api/session-client.js';
import { ProgressStore, progressIdForLink } from '../../controllers/progress-store.js';
import { isMethodDone } from './flow-phase.js';

/** The service's base URL: the `api-base` attribute, else the link's origin, else this page's. */
export function resolveApiBase(apiBase: string, link: string): string {
  if (apiBase) return apiBase;
  try {
    if (link) return new URL(link).origin;
  } catch {
    // Fall through to the page's origin.
  }
  return window.location.origin;
}

/** Where models and wasm come from: `asset-base`, else `{apiBase}/web/vendor/`; always ending in `/`. */
export function resolveAssetBase(assetBase: string, apiBase: string): string {
  const base = assetBase || `${apiBase.replace(/\/+$/, '')}/web/vendor/`;
  return base.endsWith('/') ? base : `${base}/`;
}

/**
 * Opens the session the flow was given: a hand-off token (the phone side), a magic link, or the
 * hosted page's cookie session; and the progress store that lets a reload resume it.
 */
export async function openSession(
  client: SessionClient,
  from: { handoff: string; link: string },
  signal?: AbortSignal,
): Promise<{ session: SessionView; store: ProgressStore }> {
  let session: SessionView;
  if (from.handoff) session = (await client.claimHandoff(from.handoff, signal)).session;
  else if (from.link) session = (await client.start(from.link, signal)).session;
  else session = await client.session(signal);
  const storeId = from.handoff ? `handoff:${session.csrf_token.slice(0, 8)}` : from.link ? progressIdForLink(from.link) : 'hosted';
  return { session, store: new ProgressStore(storeId) };
}

/** The width of the progress bar, 0–100: steps done, and the step on screen half while it is open ("Step 1 of 1" is under way, not empty). */
export function progressPercent(session: SessionView, currentOpen: boolean): number {
  const total = session.methods.length;
  const done = session.methods.filter(isMethodDone).length;
  return (100 * Math.min(total, done + (currentOpen ? 0.5 : 0))) / total;
}
