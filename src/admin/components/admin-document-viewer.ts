import { css, html, LitElement, nothing } from 'lit';
import { styleMap } from 'lit/directives/style-map.js';
import type { CaseDetail } from '../../api/admin/cases.js';
import { adminStyles } from '../styles.js';

type CaseDocument = CaseDetail['documents'][number];

const ZOOMS = [1, 1.5, 2, 3, 4] as const;

/**
 * One document image of a case, zoomable (buttons, or `+`, `-` and `0` on the focused image; the
 * zoomed image scrolls with the arrow keys), with the fields the analysis read beside it and the
 * fields that disagree with the user's record marked in words, not only in colour.
 */
export class AdminDocumentViewer extends LitElement {
  static override styles = [
    adminStyles,
    css`
      .doc {
        display: grid;
        grid-template-columns: minmax(0, 1fr) minmax(0, 1fr);
        gap: 1rem;
        align-items: start;
      }
      @media (max-width: 50rem) {
        .doc {
          grid-template-columns: minmax(0, 1fr);
        }
      }
      figure {
        margin: 0;
        min-width: 0;
      }
      .viewport {
        overflow: auto;
        max-height: 24rem;
        border: 1px solid var(--verity-border, #d5d9e0);
        border-radius: 6px;
        background: var(--verity-surface-2, #f4f6f9);
      }
      .viewport img {
        display: block;
        max-width: none;
      }
      img.portrait {
        display: block;
        width: 6rem;
        height: 7.5rem;
        object-fit: cover;
        border-radius: 6px;
        border: 1px solid var(--verity-border, #d5d9e0);
      }
      tr.disagrees th,
      tr.disagrees td {
        background: var(--verity-danger-surface, #fef2f2);
      }
      .mark {
        color: var(--verity-danger, #b91c1c);
        font-weight: 600;
      }
    `,
  ];

  static override properties = { document: { attribute: false }, zoom: { state: true } };
  declare document: CaseDocument | undefined;
  declare zoom: number;

  constructor() {
    super();
    this.document = undefined;
    this.zoom = 0;
  }

  #set(step: number): void {
    this.zoom = Math.min(ZOOMS.length - 1, Math.max(0, step));
  }

  #key(e: KeyboardEvent): void {
    if (e.key === '+' || e.key === '=') this.#set(this.zoom + 1);
    else if (e.key === '-') this.#set(this.zoom - 1);
    else if (e.key === '0') this.#set(0);
    else return;
    e.preventDefault();
  }

  override render() {
    const d = this.document;
    if (!d) return nothing;
    const label = `${d.side ?? 'document'} ${d.doc_type ?? ''}`.trim();
    const factor = ZOOMS[this.zoom] ?? 1;
    const disagreeing = d.fields.filter((f) => f.agrees === false).length;
    return html`<div class="doc">
      <figure>
        <div class="row" role="group" aria-label=${`Zoom the ${label}`}>
          <button type="button" class="secondary" ?disabled=${this.zoom === 0} @click=${() => this.#set(this.zoom - 1)} aria-label="Zoom out">−</button>
          <span aria-live="polite">${Math.round(factor * 100)} %</span>
          <button type="button" class="secondary" ?disabled=${this.zoom === ZOOMS.length - 1} @click=${() => this.#set(this.zoom + 1)} aria-label="Zoom in">
            +
          </button>
          <button type="button" class="secondary" ?disabled=${this.zoom === 0} @click=${() => this.#set(0)}>Fit</button>
        </div>
        <div class="viewport" tabindex="0" role="region" aria-label=${`${label} image: plus and minus zoom, arrows scroll`} @keydown=${this.#key}>
          <img src=${d.image_url} alt=${`The ${label} as captured`} style=${styleMap({ width: `${factor * 100}%` })} />
        </div>
        <figcaption class="muted">${d.status}${d.reason ? `: ${d.reason}` : ''} · ${d.created_at.replace('T', ' ').slice(0, 19)}</figcaption>
      </figure>
      <div>
        ${d.portrait_url ? html`<img class="portrait" src=${d.portrait_url} alt=${`Portrait found on the ${label}`} />` : nothing}
        <p class=${disagreeing ? 'mark' : 'muted'}>
          ${disagreeing ? `${disagreeing} ${disagreeing === 1 ? 'field disagrees' : 'fields disagree'} with the user's record.` : 'No field disagrees with the record.'}
        </p>
        ${
          d.fields.length
            ? html`<table class="fields">
                <caption class="sr-only">
                  Fields read on the ${label}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    <th scope="col">On the document</th>
                    <th scope="col">In the record</th>
                  </tr>
                </thead>
                <tbody>
                  ${d.fields.map(
                    (f) =>
                      html`<tr class=${f.agrees === false ? 'disagrees' : ''}>
                        <th scope="row">${f.name}</th>
                        <td>${f.value}${f.confidence === null ? nothing : html` <span class="muted">(${f.confidence} %)</span>`}</td>
                        <td>
                          ${f.record ?? '—'}${f.agrees === false ? html` <span class="mark">Disagrees</span>` : f.agrees ? html` <span class="muted">Agrees</span>` : nothing}
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>`
            : html`<p class="muted">No fields were read.</p>`
        }
      </div>
    </div>`;
  }
}

if (!customElements.get('admin-document-viewer')) customElements.define('admin-document-viewer', AdminDocumentViewer);

declare global {
  interface HTMLElementTagNameMap {
    'admin-document-viewer': AdminDocumentViewer;
  }
}
