import { css, html, nothing } from 'lit';
import type { CaseDetail, CaseDuplicate } from '../../api/admin/cases.js';
import { adminStyles, outcomeStyles } from '../styles.js';
import './admin-document-viewer.js';
import { AdminView } from './admin-view.js';
import { checksTable } from './checks-table.js';

const DEA_CHECKS: Record<string, string> = {
  dea_format: 'Format',
  dea_check_digit: 'Check digit',
  dea_registrant_initial: 'Initial of the last name',
  dea_registry: 'Registry',
};
const TIMELINE_KINDS: Record<CaseDetail['timeline'][number]['kind'], string> = { event: 'Event', delivery: 'Webhook delivery', decision: 'Decision' };

/**
 * The case part of a user's page: other users sharing a document number or face (possible
 * duplicates, each linked), each document with its fields against the record, the document
 * portrait beside the selfie and liveness frames with the match score, reviewers' notes (add one),
 * and the timeline of events, webhook deliveries and decisions.
 */
export class AdminCase extends AdminView {
  static override styles = [
    adminStyles,
    outcomeStyles,
    css`
      .faces {
        display: flex;
        flex-wrap: wrap;
        gap: 0.75rem;
        list-style: none;
        padding: 0;
        margin: 0;
      }
      .faces figure {
        margin: 0;
      }
      .faces img {
        display: block;
        width: 8rem;
        height: 8rem;
        object-fit: cover;
        border-radius: 6px;
        border: 1px solid var(--verity-border, #d5d9e0);
      }
      .score {
        font-size: 1.1rem;
        font-weight: 600;
      }
      .scroll {
        overflow-x: auto;
      }
      /* A reason may hold a long token (an environment variable's name): it breaks rather than widening the table past a phone. */
      table.dea td.reason {
        overflow-wrap: anywhere;
      }
      ol.notes,
      ul.duplicates {
        padding-inline-start: 1.2rem;
      }
      textarea {
        min-height: 4rem;
      }
      /* On a phone each timeline line is a block (when, what, details) instead of three squeezed columns. */
      @media (max-width: 40rem) {
        table.timeline thead {
          position: absolute;
          width: 1px;
          height: 1px;
          overflow: hidden;
          clip: rect(0 0 0 0);
        }
        table.timeline,
        table.timeline tbody,
        table.timeline tr,
        table.timeline td,
        table.timeline th {
          display: block;
          border: 0;
          overflow-wrap: anywhere;
        }
        table.timeline tr {
          border-bottom: 1px solid var(--verity-border, #d5d9e0);
          padding-block: 0.4rem;
        }
      }
    `,
  ];

  static override properties = { ...AdminView.properties, userId: { type: Number, attribute: 'user-id' }, kase: { state: true } };
  declare userId: number;
  declare kase: CaseDetail | undefined;

  constructor() {
    super();
    this.userId = 0;
    this.kase = undefined;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  /** Reads the case again (after a decision, the timeline has grown). */
  async load(): Promise<void> {
    const res = await this.run(() => this.client.get<{ data: CaseDetail }>(`/admin/api/users/${this.userId}/case`));
    if (res) this.kase = res.data;
  }

  async #addNote(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const body = String(new FormData(form).get('body') ?? '').trim();
    if (!body) {
      this.error = 'Write the note first.';
      return;
    }
    const ok = await this.run(() => this.client.post(`/admin/api/users/${this.userId}/notes`, { body }), 'Note added.');
    if (ok) {
      form.reset();
      await this.load();
    }
  }

  override render() {
    const k = this.kase;
    if (!k) return html`${this.feedback()}`;
    const portrait = k.documents.find((d) => d.portrait_url);
    return html`${k.duplicates.length ? this.#duplicates(k.duplicates) : nothing}${
        k.documents.length
          ? html`<h2>Documents</h2>
              ${k.documents.map((d) => html`<admin-document-viewer .document=${d}></admin-document-viewer>`)}`
          : nothing
      }
      ${k.faces.length ? this.#faces(k, portrait) : nothing} ${k.dea ? this.#dea(k.dea) : nothing}
      <h2>Notes</h2>
      ${
        k.notes.length
          ? html`<ol class="notes">
              ${k.notes.map(
                (n) =>
                  html`<li>
                    <p>${n.body}</p>
                    <p class="muted">${n.author}, ${n.created_at.replace('T', ' ').slice(0, 16)} UTC</p>
                  </li>`,
              )}
            </ol>`
          : html`<p class="muted">No notes yet.</p>`
      }
      <form aria-label="Add a note" @submit=${this.#addNote}>
        <label>Note for other reviewers (not sent to the customer)<textarea name="body" maxlength="4000"></textarea></label>
        <p><button type="submit">Add note</button></p>
      </form>
      <h2>Timeline</h2>
      ${k.timeline.length ? this.#timeline(k) : html`<p class="muted">Nothing has happened yet.</p>`} ${this.feedback()}`;
  }

  /** One row per other user sharing a document number or a face, linking to their page. */
  #duplicates(rows: readonly CaseDuplicate[]) {
    const how = (d: CaseDuplicate) =>
      d.kind === 'document' ? 'Same document number as' : `Same face (similarity ${d.score === null ? '?' : d.score.toFixed(2)}) as`;
    return html`<h2 id="duplicates">Possible duplicates</h2>
      <ul class="duplicates" aria-labelledby="duplicates">
        ${rows.map(
          (d) =>
            html`<li>
              <strong>Possible duplicate</strong> (${d.verification}): ${how(d)} <a href="/admin/users/${d.other.id}">${d.other.label}</a>
              <span class="muted"
                >(${d.other_verification}, ${d.found_by === 'this' ? 'found by this capture' : 'found by their later capture'},
                ${d.detected_at.replace('T', ' ').slice(0, 16)} UTC)</span
              >
            </li>`,
        )}
      </ul>`;
  }

  #faces(k: CaseDetail, portrait: CaseDetail['documents'][number] | undefined) {
    return html`<h2>Faces</h2>
      ${k.faces.map(
        (f) =>
          html`<section aria-label=${f.name}>
            <h3>${f.name}</h3>
            <p class="score">
              Match score with the document portrait:
              ${f.similarity === null ? 'not measured' : f.similarity.toFixed(2)}${
                f.decision ? html` <span class="muted">(analysis: ${f.decision})</span>` : nothing
              }
            </p>
            <ul class="faces">
              <li>
                <figure>
                  ${
                    portrait?.portrait_url
                      ? html`<img src=${portrait.portrait_url} alt="Portrait cropped from the document" />`
                      : html`<span class="muted">No document portrait</span>`
                  }
                  <figcaption>Document portrait</figcaption>
                </figure>
              </li>
              ${f.captures.map(
                (c, i) =>
                  html`<li>
                    <figure>
                      <img src=${c.url} alt=${`${f.name} capture ${i + 1} (${c.kind})`} loading="lazy" />
                      <figcaption>${c.kind}</figcaption>
                    </figure>
                  </li>`,
              )}
            </ul>
          </section>`,
      )}`;
  }

  /**
   * The DEA number with a row per check: what was checked, its outcome and why. The table scrolls
   * inside itself (a focusable region, so the keyboard scrolls it too) rather than the page.
   */
  #dea(dea: NonNullable<CaseDetail['dea']>) {
    return html`<h2 id="dea">DEA number</h2>
      <p><code>${dea.dea_number}</code></p>
      <div class="scroll" tabindex="0" role="region" aria-labelledby="dea">
        ${checksTable(
          'Checks of the DEA number',
          dea.checks.map((c) => ({ label: DEA_CHECKS[c.name] ?? c.name, outcome: c.outcome, reason: c.reason })),
          'dea',
        )}
      </div>`;
  }

  #timeline(k: CaseDetail) {
    return html`<div class="scroll" tabindex="0" role="region" aria-label="Timeline">
      <table class="timeline">
        <thead>
          <tr>
            <th scope="col">When (UTC)</th>
            <th scope="col">What</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          ${k.timeline.map(
            (t) =>
              html`<tr class=${t.kind}>
                <td>${t.at.replace('T', ' ').slice(0, 19)}</td>
                <th scope="row">${TIMELINE_KINDS[t.kind]}: ${t.what}${t.method ? html`<br /><span class="muted">${t.method}</span>` : nothing}</th>
                <td>${[t.by, t.detail].filter(Boolean).join(' · ')}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }
}

if (!customElements.get('admin-case')) customElements.define('admin-case', AdminCase);

declare global {
  interface HTMLElementTagNameMap {
    'admin-case': AdminCase;
  }
}
