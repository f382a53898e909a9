import { msg } from '@lit/localize';
import { html, nothing, type TemplateResult } from 'lit';

/**
 * The front camera's preview in its oval, as the selfie, liveness and video steps show it (their
 * styles: `verify-step-selfie.styles.ts`), and "Starting the camera…" while it opens. Always
 * rendered from the same template, so the `<video>` the camera plays into stays the same element.
 */
export function faceViewport(view: { shown: boolean; preparing: boolean; flashing?: boolean }): TemplateResult {
  return html`<div class="viewport ${view.flashing ? 'flashing' : ''}" ?hidden=${!view.shown}>
      <video part="video" muted playsinline aria-label=${msg('Camera preview', { id: 'doc.preview' })}></video>
      <div class="oval" aria-hidden="true"></div>
    </div>
    ${view.preparing ? html`<p role="status">${msg('Starting the camera…', { id: 'doc.starting' })}</p>` : nothing}`;
}
