import { html, nothing } from 'lit';
import { query } from '../api.js';
import type { Page } from '../../api/admin/common.js';
import type { TemplatesAnswer } from '../../api/admin/templates.js';
import { USER_STATUSES } from '../../api/admin/user-statuses.js';
import type { AdminUser } from '../../api/admin/users.js';
import { userTable } from '../user-table.js';
import type { PageChangeEvent } from './admin-pager.js';
import './admin-pager.js';
import './admin-link-panel.js';
import { AdminView } from './admin-view.js';
import { states } from '../../internal/lit-states.js';

const SORTS = [
  ['-created_at', 'Newest first'],
  ['created_at', 'Oldest first'],
  ['last_name', 'Last name'],
  ['email', 'E-mail'],
  ['-updated_at', 'Recently changed'],
] as const;

/**
 * Users: search, status filter, sort and server-side pages; add a user, then copy or send the
 * verify link and show its QR code.
 */
export class AdminUsers extends AdminView {
  static override properties = {
    ...AdminView.properties,
    ...states('page', 'search', 'statusFilter', 'sort', 'result', 'templates', 'created'),
  };
  declare page: number;
  declare search: string;
  declare statusFilter: string;
  declare sort: string;
  declare result: Page<AdminUser> | undefined;
  declare templates: TemplatesAnswer | undefined;
  /** The user just added (its link panel is shown). */
  declare created: AdminUser | undefined;

  constructor() {
    super();
    this.page = 1;
    this.search = '';
    this.statusFilter = '';
    this.sort = '-created_at';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
    void this.run(async () => {
      this.templates = await this.client.get<TemplatesAnswer>('/admin/api/templates');
    });
  }

  async load(): Promise<void> {
    const path = `/admin/api/users${query({ page: this.page, per_page: 20, search: this.search, status: this.statusFilter, sort: this.sort })}`;
    const result = await this.run(() => this.client.get<Page<AdminUser>>(path));
    if (result) this.result = result;
  }

  #filter(e: SubmitEvent): void {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    this.search = String(data.get('search') ?? '');
    this.statusFilter = String(data.get('status') ?? '');
    this.sort = String(data.get('sort') ?? '-created_at');
    this.page = 1;
    void this.load();
  }

  async #add(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    const body: Record<string, string> = {};
    for (const k of ['email', 'first_name', 'last_name', 'phone', 'template_id', 'reference_id']) {
      const v = String(data.get(k) ?? '').trim();
      if (v) body[k] = v;
    }
    const res = await this.run(() => this.client.post<{ data: AdminUser }>('/admin/api/users', body), 'The user was added.');
    if (res) {
      this.created = res.data;
      form.reset();
      void this.load();
    }
  }

  override render() {
    const r = this.result;
    return html`<h1 tabindex="-1">Users</h1>
      <form class="filters" role="search" aria-label="Find users" @submit=${this.#filter}>
        <div class="row">
          <label>Search <input name="search" type="search" .value=${this.search} placeholder="Name, username or e-mail" /></label>
          <label
            >Status
            <select name="status">
              <option value="">Any</option>
              ${USER_STATUSES.map((s) => html`<option value=${s} ?selected=${s === this.statusFilter}>${s}</option>`)}
            </select>
          </label>
          <label
            >Sort
            <select name="sort">
              ${SORTS.map(([v, l]) => html`<option value=${v} ?selected=${v === this.sort}>${l}</option>`)}
            </select>
          </label>
          <button type="submit">Apply</button>
        </div>
      </form>
      ${
        r
          ? html`<p class="muted" aria-live="polite">${r.meta.total ?? 0} users</p>
              ${userTable(r.data, { verifications: true })}
              <admin-pager
                label="User pages"
                .page=${r.meta.page}
                .lastPage=${r.meta.last_page ?? 1}
                @page-change=${(e: PageChangeEvent) => {
                  this.page = e.page;
                  void this.load();
                }}
              ></admin-pager>`
          : html`<p>Loading…</p>`
      }
      <h2 id="add-title">Add a user</h2>
      <form aria-labelledby="add-title" class="add" @submit=${this.#add}>
        <label>E-mail <input name="email" type="email" required autocomplete="off" /></label>
        <div class="row">
          <label>First name <input name="first_name" autocomplete="off" /></label>
          <label>Last name <input name="last_name" autocomplete="off" /></label>
        </div>
        <label>Phone (E.164, e.g. +14155550123) <input name="phone" type="tel" autocomplete="off" /></label>
        <label
          >Template
          <select name="template_id">
            <option value="">Account default${this.templates?.default_template ? ` (${this.templates.default_template})` : ''}</option>
            ${this.templates?.data.map((t) => html`<option value=${t.name}>${t.label} (${t.name})</option>`) ?? nothing}
          </select>
        </label>
        <label>Reference id <input name="reference_id" autocomplete="off" /></label>
        <div><button type="submit">Add user</button></div>
      </form>
      ${
        this.created
          ? html`<p>Added <a href="/admin/users/${this.created.id}">${this.created.email}</a>.</p>
              <admin-link-panel .api=${this.api} user-id=${this.created.id} ?has-phone=${!!this.created.phone}></admin-link-panel>`
          : nothing
      }
      ${this.feedback()}`;
  }
}

if (!customElements.get('admin-users')) customElements.define('admin-users', AdminUsers);

declare global {
  interface HTMLElementTagNameMap {
    'admin-users': AdminUsers;
  }
}
