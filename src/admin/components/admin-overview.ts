import { css, html } from 'lit';
import type { Overview } from '../../api/admin/overview.js';
import { adminStyles } from '../styles.js';
import { userTable } from '../user-table.js';
import './admin-chart.js';
import './admin-notices.js';
import { AdminView } from './admin-view.js';

/** `2026-05-12` → `12 May`, read in UTC like the series. */
function shortDay(date: string): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
}

/** `mrz_check_digits` → `MRZ check digits`. */
function checkName(name: string): string {
  const words = name.replace(/_/g, ' ').replace(/\bmrz\b/g, 'MRZ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Overview: the account statistics (same numbers as `GET /api/stats`), four charts (registrations
 * per month, users per status, decisions per day, pass rate per check), each with its table, and
 * the latest registrations.
 */
export class AdminOverview extends AdminView {
  static override styles = [
    adminStyles,
    css`
      .charts {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(min(100%, 30rem), 1fr));
        gap: var(--verity-space-4, 1rem);
        margin-block: var(--verity-space-4, 1rem);
      }
      .tiles {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr));
        gap: var(--verity-space-3, 0.75rem);
        margin: 0;
      }
      .tiles div {
        background: var(--verity-surface, #fff);
        border: 1px solid var(--verity-border, #d5d9e0);
        border-radius: var(--verity-radius-lg, 10px);
        padding: var(--verity-space-3, 0.75rem) var(--verity-space-4, 1rem);
      }
      .tiles dt {
        color: var(--verity-muted, #4a5161);
        font-size: var(--verity-text-sm, 0.875rem);
      }
      .tiles dd {
        margin: 0;
        font-size: var(--verity-text-xl, 1.5rem);
        font-weight: 600;
        font-variant-numeric: tabular-nums;
      }
    `,
  ];
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
    const days = d.decisions_per_day;
    const rates = d.check_pass_rates;
    const counts = d.users_per_status;
    return html`<dl class="tiles" aria-label="Users">
        <div>
          <dt>Users</dt>
          <dd>${counts.total}</dd>
        </div>
        <div>
          <dt>New</dt>
          <dd>${counts.new}</dd>
        </div>
        <div>
          <dt>In progress</dt>
          <dd>${counts.unconfirmed}</dd>
        </div>
        <div>
          <dt>Banned</dt>
          <dd>${counts.banned}</dd>
        </div>
      </dl>
      <div class="charts">
        <admin-chart
          heading=${`Registrations per month, ${d.year}`}
          category-header="Month"
          .labels=${months.map(([m]) => m.slice(0, 3))}
          .tableLabels=${months.map(([m]) => m)}
          .series=${[{ name: 'Registrations', values: months.map(([, n]) => n) }]}
        ></admin-chart>
        <admin-chart
          heading="Users per status"
          category-header="Status"
          .labels=${statuses.map(([s]) => s)}
          .series=${[{ name: 'Users', values: statuses.map(([, n]) => n) }]}
        ></admin-chart>
        <admin-chart
          heading=${`Decisions per day, last ${d.days} days`}
          category-header="Day"
          stacked
          .labels=${days.map((x) => shortDay(x.date))}
          .tableLabels=${days.map((x) => x.date)}
          .series=${[
            { name: 'Approved', values: days.map((x) => x.approved) },
            { name: 'In review', values: days.map((x) => x.review) },
            { name: 'Rejected', values: days.map((x) => x.rejected) },
          ]}
          .seriesClasses=${['s4', 's2', 's3']}
        ></admin-chart>
        <admin-chart
          heading=${`Pass rate per check, last ${d.days} days`}
          category-header="Check"
          horizontal
          percent
          .labels=${rates.map((r) => checkName(r.check))}
          .series=${[{ name: 'Pass rate', values: rates.map((r) => r.rate) }]}
          .tableColumns=${[
            { name: 'Passed', values: rates.map((r) => r.passed) },
            { name: 'Flagged', values: rates.map((r) => r.flagged) },
            { name: 'Failed', values: rates.map((r) => r.failed) },
          ]}
        ></admin-chart>
      </div>
      <p class="muted">
        Decisions count each verification once, on the day of its last decision. Pass rates read the latest ${d.pass_rate_sample} decided verifications at most;
        a check that did not run is not counted.
      </p>
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
