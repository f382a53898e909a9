import { html, svg } from 'lit';
import type { UserSummary } from '../api.js';
import { userTable } from '../user-table.js';
import './admin-notices.js';
import { AdminView } from './admin-view.js';

interface Overview {
  year: number;
  users_per_month: Record<string, number>;
  users_per_status: { total: number; new: number; banned: number; unconfirmed: number };
  users_by_status: Record<string, number>;
  latest_registrations: UserSummary[];
}

/** A bar chart as SVG with a text alternative; the numbers are also in the table beside it. */
function barChart(title: string, entries: [string, number][]) {
  const max = Math.max(1, ...entries.map(([, n]) => n));
  const width = 36;
  const height = 120;
  return html`<figure>
    <svg
      role="img"
      aria-label=${`${title}: ${entries.map(([k, n]) => `${k} ${n}`).join(', ')}`}
      viewBox="0 0 ${entries.length * width} ${height + 24}"
      width="100%"
      height="160"
    >
      ${entries.map(([label, n], i) => {
        const h = Math.round((n / max) * height);
        return svg`<rect x=${i * width + 6} y=${height - h} width=${width - 12} height=${h} fill="#1d4ed8"></rect>
          <text x=${i * width + width / 2} y=${height + 16} font-size="10" text-anchor="middle" fill="#14171f">${label.slice(0, 3)}</text>`;
      })}
    </svg>
    <figcaption>${title}</figcaption>
  </figure>`;
}

/** Overview: the account statistics (same numbers as `GET /api/stats`) and the latest registrations. */
export class AdminOverview extends AdminView {
  static override properties = { ...AdminView.properties, data: { state: true } };
  declare data: Overview | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  async load(): Promise<void> {
    this.data = await this.run(() => this.client.get<Overview>('/admin/api/overview'));
  }

  override render() {
    // Notices (e.g. a webhook endpoint disabled after failing for days) come first, with their own loading.
    return html`<h1 tabindex="-1">Overview</h1>
      <admin-notices .api=${this.api}></admin-notices>
      ${this.data ? this.#body(this.data) : html`<p>Loading…</p>`}${this.feedback()}`;
  }

  #body(d: Overview) {
    const months = Object.entries(d.users_per_month);
    const statuses = Object.entries(d.users_by_status);
    return html`<p>
        ${d.users_per_status.total} users in total; ${d.users_per_status.new} new, ${d.users_per_status.unconfirmed} in progress, ${d.users_per_status.banned}
        banned.
      </p>
      <h2>Registrations per month, ${d.year}</h2>
      ${barChart(`Registrations per month in ${d.year}`, months)}
      <h2>Users per status</h2>
      ${barChart('Users per status', statuses)}
      <table>
        <caption class="sr-only">
          Users per status
        </caption>
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Users</th>
          </tr>
        </thead>
        <tbody>
          ${statuses.map(
            ([s, n]) =>
              html`<tr>
                <td>${s}</td>
                <td>${n}</td>
              </tr>`,
          )}
        </tbody>
      </table>
      <h2>Latest registrations</h2>
      ${userTable(d.latest_registrations)}`;
  }
}

if (!customElements.get('admin-overview')) customElements.define('admin-overview', AdminOverview);

declare global {
  interface HTMLElementTagNameMap {
    'admin-overview': AdminOverview;
  }
}
