/**
 * The hosted page's side of the modal / popup embed: forwards the flow's public events to the
 * `<verify-button>` that opened it, with an explicit target origin, never `*`.
 */
import type { EmbedMessage } from '../events/events.js';

/** How the page was opened, from the URL hash the button sets (not part of the signed query). */
export interface EmbedContext {
  mode: 'modal' | 'popup';
  /** The opener's exact origin. */
  origin: string;
  target: Window;
}

/** Reads the embed context, or null when the page is opened directly (redirect mode). */
export function readEmbedContext(location: Location, win: Window): EmbedContext | null {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const mode = params.get('verity-embed');
  const claimed = params.get('verity-origin');
  if ((mode !== 'modal' && mode !== 'popup') || !claimed) return null;
  let origin: string;
  try {
    origin = new URL(claimed).origin;
  } catch {
    return null;
  }
  if (mode === 'modal') {
    if (win.parent === win) return null;
    // Where the browser tells us who embeds us, it must agree with the claim.
    const ancestors = (location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
    if (ancestors && ancestors.length > 0 && ancestors[0] !== origin) return null;
    return { mode, origin, target: win.parent };
  }
  if (!win.opener) return null;
  return { mode, origin, target: win.opener as Window };
}

/** Posts one message to the opener with its exact origin as the target origin. */
export function post(context: EmbedContext, message: EmbedMessage): void {
  context.target.postMessage(message, context.origin);
}
