import { css, html, nothing } from 'lit';
import { query } from '../api.js';
import type { ReviewRow } from '../../api/admin/cases.js';
import type { Page } from '../../api/admin/common.js';
import type { TemplatesAnswer } from '../../api/admin/templates.js';
import { adminStyles } from '../styles.js';
import type { PageChangeEvent } from './admin-pager.js';
import './admin-pager.js';
import { AdminView } from './admin-view.js';
import { states } from '../../internal/lit-states.js';

/**
 * The checks the queue filters by (`GET /admin/api/reviews?flag=`), in words, grouped as a reviewer
 * looks for them: what the analysis found, what the customer required of the document
 * (`custom_verify_data.document`), and the user's DEA number.
 */
export const REVIEW_FLAG_GROUPS = [
  [
    'Analysis',
    [
      ['photoshopped', 'Image edited (photoshopped)'],
      ['screen_recapture', 'Photo of a screen'],
      ['face_match', 'Face match uncertain or failed'],
      ['name_match', 'Name does not match'],
      ['mrz_check_digits', 'MRZ check failed'],
      ['machine_readable_data', 'No machine-readable data'],
      ['anti_spoof', 'Anti-spoof'],
      ['duplicate', 'Possible duplicate (document or face of another user)'],
    ],
  ],
  [
    "Customer's document requirements",
    [
      ['required_document_type', 'Required document type not met'],
      ['required_issuing_country', 'Issuing country not accepted'],
      ['required_issuing_state', 'Issuing state not accepted'],
      ['required_minimum_age', 'Under the minimum age'],
      ['required_date_of_birth', 'Date of birth not the one required'],
      ['required_name_match', 'Required name match not met'],
      ['required_expiry_margin', 'Document expires too soon'],
    ],
  ],
  [
    'DEA number',
    [
      ['dea_format', 'DEA number malformed'],
      ['dea_check_digit', 'DEA check digit wrong'],
      ['dea_registrant_initial', 'DEA initial not the last name'],
      ['dea_registry', 'DEA registry did not confirm'],
    ],
  ],
] as const;

interface Filters {
  flag: string;
  method: string;
  template: string;
  from: string;
  to: string;
}

const NO_FILTERS: Filters = { flag: '', method: '', template: '', from: '', to: '' };

/**
 * The review queue: users waiting for a decision, oldest first, each with why in words; filters
 * (flag, method, template, days) and pages are the server's, and each user links to their page.
 */
export class AdminReviews extends AdminView {
  static override styles = [
    adminStyles,
    css`
      form.filters {
        max-width: none;
      }
      /* Labels above their fields, fields lined up along the bottom whatever their heights. */
      .fields label {
        align-content: end;
      }
      .scroll {
        overflow-x: auto;
      }
      ul.reasons {
        margin: 0;
        padding-inline-start: 1.1rem;
      }
      td.when {
        white-space: nowrap;
      }
      /* Whole addresses where they fit (never "ada@example.te / st"); broken only when longer than the line. */
      .email {
        overflow-wrap: break-word;
      }
      /* On a phone each user is a block of labelled lines: four columns would squeeze the reasons to a word a line. */
      @media (max-width: 40rem) {
        thead {
          position: absolute;
          width: 1px;
          height: 1px;
          overflow: hidden;
          clip: rect(0 0 0 0);
        }
        tr,
        td {
          display: block;
        }
        tr {
          border-bottom: 1px solid var(--verity-border, #d5d9e0);
          padding-block: 0.4rem;
        }
        td {
          border: 0;
          padding: 0.15rem 0;
        }
        td[data-label]::before {
          content: attr(data-label) ': ';
          font-weight: 600;
        }
      }
    `,
  ];

  static override properties = {
    ...AdminView.properties,
    ...states('page', 'filters', 'result', 'templates'),
  };
  declare page: number;
  declare filters: Filters;
  declare result: Page<ReviewRow> | undefined;
  declare templates: TemplatesAnswer | undefined;

  constructor() {
    super();
    this.page = 1;
    this.filters = NO_FILTERS;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
    void this.run(async () => {
      this.templates = await this.client.get<TemplatesAnswer>('/admin/api/templates');
    });
  }

  async load(): Promise<void> {
    const path = `/admin/api/reviews${query({ page: this.page, per_page: 20, ...this.filters })}`;
    const result = await this.run(() => this.client.get<Page<ReviewRow>>(path));
    if (result) this.result = result;
  }

  #filter(e: SubmitEvent): void {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const read = (k: keyof Filters) => String(data.get(k) ?? '');
    this.filters = { flag: read('flag'), method: read('method'), template: read('template'), from: read('from'), to: read('to') };
    this.page = 1;
    void this.load();
  }

  #clear(e: Event): void {
    (e.target as HTMLButtonElement).form?.reset();
    this.filters = NO_FILTERS;
    this.page = 1;
    void this.load();
  }

  #table(rows: readonly ReviewRow[]) {
    if (rows.length === 0) return html`<p>No one is waiting for a decision.</p>`;
    return html`<div class="scroll" role="region" aria-label="Users waiting for a decision" tabindex="0">
      <table>
        <thead>
          <tr>
            <th scope="col">User</th>
            <th scope="col">Waiting since</th>
            <th scope="col">Why</th>
            <th scope="col">Template</th>
          </tr>
        </thead>
        <tbody>
          ${rows.map(
            (r) =>
              html`<tr>
                <td>
                  <a href="/admin/users/${r.user.id}">${`${r.user.first_name ?? ''} ${r.user.last_name ?? ''}`.trim() || r.user.email}</a>
                  <div class="muted email">${r.user.email}</div>
                </td>
                <td class="when" data-label="Waiting since">
                  <time datetime=${r.entered_review_at}>${r.entered_review_at.slice(0, 16).replace('T', ' ')} UTC</time>
                </td>
                <td data-label="Why">
                  <ul class="reasons">
                    ${r.reasons.map((reason) => html`<li>${reason}</li>`)}
                  </ul>
                </td>
                <td data-label="Template">${r.template?.label ?? html`<span class="muted">None</span>`}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  override render() {
    const r = this.result;
    const f = this.filters;
    return html`<h1 tabindex="-1">Reviews</h1>
      <p class="muted">Users waiting for a decision, oldest first.</p>
      <form class="filters" role="search" aria-label="Filter the review queue" @submit=${this.#filter}>
        <div class="row fields">
          <label
            >Flag
            <select name="flag">
              <option value="">Any</option>
              ${REVIEW_FLAG_GROUPS.map(
                ([group, flags]) =>
                  html`<optgroup label=${group}>${flags.map(([v, l]) => html`<option value=${v} ?selected=${v === f.flag}>${l}</option>`)}</optgroup>`,
              )}
            </select>
          </label>
          <label
            >Method
            <select name="method">
              <option value="">Any</option>
              ${this.templates?.methods.map((m) => html`<option value=${m.key} ?selected=${m.key === f.method}>${m.name}</option>`) ?? nothing}
            </select>
          </label>
          <label
            >Template
            <select name="template">
              <option value="">Any</option>
              ${this.templates?.data.map((t) => html`<option value=${t.name} ?selected=${t.name === f.template}>${t.label}</option>`) ?? nothing}
            </select>
          </label>
          <label>Entered review from <input name="from" type="date" .value=${f.from} /></label>
          <label>Entered review to <input name="to" type="date" .value=${f.to} /></label>
          <button type="submit">Apply</button>
          <button type="button" class="secondary" @click=${this.#clear}>Clear</button>
        </div>
      </form>
      ${
        r
          ? html`<p class="muted" aria-live="polite">${r.meta.total ?? 0} waiting</p>
              ${this.#table(r.data)}
              <admin-pager
                label="Review queue pages"
                .page=${r.meta.page}
                .lastPage=${r.meta.last_page ?? 1}
                @page-change=${(e: PageChangeEvent) => {
                  this.page = e.page;
                  void this.load();
                }}
              ></admin-pager>`
          : html`<p>Loading…</p>`
      }
      ${this.feedback()}`;
  }
}

if (!customElements.get('admin-reviews')) customElements.define('admin-reviews', AdminReviews);

declare global {
  interface HTMLElementTagNameMap {
    'admin-reviews': AdminReviews;
  }
}
