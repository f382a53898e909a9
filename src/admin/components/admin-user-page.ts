import { css, html, nothing } from 'lit';
import type { TemplatesAnswer } from '../../api/admin/templates.js';
import { USER_STATUSES } from '../../api/admin/user-statuses.js';
import type { AdminUser, Enrolment, UserDetail, VerificationDetail } from '../../api/admin/users.js';
import './admin-case.js';
import type { AdminCase } from './admin-case.js';
import './admin-link-panel.js';
import { adminStyles, outcomeStyles } from '../styles.js';
import { AdminView } from './admin-view.js';
import { checksTable } from './checks-table.js';
import { renderCapturedImages, renderDocumentRecords } from './user-page-captures.js';

/** Fired after the user was deleted (the app goes back to the list). */
export class UserDeletedEvent extends Event {
  constructor() {
    super('user-deleted');
  }
}

/**
 * A user's page as a case: details, each verification with its checks and a decision (approve,
 * reject, request a redo, with a reason the customer receives), the case (`<admin-case>`:
 * documents, faces, notes, timeline), captured images (short-lived signed URLs), and the actions:
 * change status, switch template, delete. Every destructive action asks first.
 */
export class AdminUserPage extends AdminView {
  static override styles = [
    adminStyles,
    outcomeStyles,
    css`
      table.checks {
        font-size: 0.9rem;
        margin-block: 0 0.5rem;
      }
      pre {
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
      .decide textarea {
        min-height: 3rem;
        width: 100%;
        box-sizing: border-box;
      }
      /* On a phone a verification (and a document job) is a block of lines rather than four squeezed columns. */
      @media (max-width: 40rem) {
        table.verifications > thead,
        table.jobs > thead {
          position: absolute;
          width: 1px;
          height: 1px;
          overflow: hidden;
          clip: rect(0 0 0 0);
        }
        table.verifications > tbody > tr,
        table.verifications > tbody > tr > th,
        table.verifications > tbody > tr > td,
        table.jobs > tbody > tr,
        table.jobs > tbody > tr > th,
        table.jobs > tbody > tr > td {
          display: block;
          border: 0;
        }
        table.verifications,
        table.verifications > tbody,
        table.jobs,
        table.jobs > tbody {
          display: block;
        }
        table.jobs th {
          overflow-wrap: anywhere;
        }
        /* Whole words in the checks: a name broken mid-word ("machin / e") reads as noise. */
        table.checks th,
        table.checks td {
          overflow-wrap: break-word;
          hyphens: auto;
          padding: 0.25rem 0.3rem;
        }
        table.verifications > tbody > tr,
        table.jobs > tbody > tr {
          border-bottom: 1px solid var(--verity-border, #d5d9e0);
          padding-block: 0.5rem;
        }
      }
    `,
  ];

  static override properties = { ...AdminView.properties, userId: { type: Number, attribute: 'user-id' }, detail: { state: true }, templates: { state: true } };
  declare userId: number;
  declare detail: UserDetail | undefined;
  declare templates: TemplatesAnswer | undefined;

  constructor() {
    super();
    this.userId = 0;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
    void this.run(async () => {
      this.templates = await this.client.get<TemplatesAnswer>('/admin/api/templates');
    });
  }

  async load(): Promise<void> {
    const res = await this.run(() => this.client.get<{ data: UserDetail }>(`/admin/api/users/${this.userId}`));
    if (res) this.detail = res.data;
  }

  async #move(v: VerificationDetail, status: 'complete' | 'rejected' | 'reset'): Promise<void> {
    const verbs = { complete: 'Approve', rejected: 'Reject', reset: 'Request a redo of' } as const;
    const field = this.renderRoot.querySelector<HTMLTextAreaElement>(`textarea[data-method="${v.key}"]`);
    const reason = field?.value.trim() ?? '';
    if (status !== 'complete' && !reason) {
      // The customer is told why; an empty reason would reach them as silence.
      this.error = `Give the reason for the customer before you ${status === 'rejected' ? 'reject' : 'ask for a redo of'} ${v.name}.`;
      field?.focus();
      return;
    }
    if (
      status !== 'complete' &&
      !(await this.confirmAction(
        `${verbs[status]} ${v.name}? The customer receives your reason in the webhook.`,
        status === 'rejected' ? 'Reject' : 'Request redo',
      ))
    )
      return;
    const past = { complete: 'approved', rejected: 'rejected', reset: 'sent back for a redo' } as const;
    const ok = await this.run(
      () => this.client.post(`/admin/api/users/${this.userId}/verifications`, { method: v.key, status, ...(reason ? { reason } : {}) }),
      `${v.name} ${past[status]}.`,
      'reason',
    );
    if (ok) {
      if (field) field.value = '';
      await this.load();
      await this.renderRoot.querySelector<AdminCase>('admin-case')?.load();
    }
  }

  /** What the user enrolled, each with its removal (a reason required, kept in the audit log). */
  #renderEnrolments(d: UserDetail) {
    if (d.enrolments.length === 0) return nothing;
    return html`<h2>Enrolled factors</h2>
      <p class="muted">
        Kept when a method is reset: the user proves possession with them. Remove one when the device was lost or stolen; the user then enrols anew.
      </p>
      <ul class="enrolments">
        ${d.enrolments.map(
          (e) =>
            html`<li data-enrolment=${e.key}>
              <span>${enrolmentText(e)}</span>
              <label
                >Why remove it (kept in the audit log)
                <input type="text" maxlength="500" data-enrolment-reason=${e.key} />
              </label>
              <button type="button" class="danger" @click=${() => this.#removeEnrolment(e)}>
                ${e.key === 'two_step' ? 'Remove second factor' : 'Remove passkeys'}
              </button>
            </li>`,
        )}
      </ul>`;
  }

  async #removeEnrolment(e: Enrolment): Promise<void> {
    const field = this.renderRoot.querySelector<HTMLInputElement>(`input[data-enrolment-reason="${e.key}"]`);
    const reason = field?.value.trim() ?? '';
    const what = e.key === 'two_step' ? 'second factor' : 'passkeys';
    if (!reason) {
      this.error = `Say why you remove the user's ${what}.`;
      field?.focus();
      return;
    }
    if (!(await this.confirmAction(`Remove the user's ${what}? They will have to enrol again.`, 'Remove'))) return;
    const ok = await this.run(
      () => this.client.request('DELETE', `/admin/api/users/${this.userId}/enrolments/${e.key}`, { reason }),
      `The user's ${what} removed.`,
      'reason',
    );
    if (ok) await this.load();
  }

  async #setStatus(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const status = String(new FormData(e.target as HTMLFormElement).get('status'));
    if (status === 'Banned' && !(await this.confirmAction('Ban this user? Their links stop working.', 'Ban'))) return;
    const ok = await this.run(() => this.client.patch(`/admin/api/users/${this.userId}`, { status }), `Status set to ${status}.`);
    if (ok) await this.load();
  }

  async #switchTemplate(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const template_id = String(new FormData(e.target as HTMLFormElement).get('template'));
    if (!(await this.confirmAction('Switch the template? The user starts the new template from the beginning.', 'Switch template'))) return;
    const ok = await this.run(() => this.client.patch(`/admin/api/users/${this.userId}`, { template_id }), 'Template switched.');
    if (ok) await this.load();
  }

  async #delete(): Promise<void> {
    if (!(await this.confirmAction('Delete this user with all their verifications and images? This cannot be undone.', 'Delete user'))) return;
    const ok = await this.run(() => this.client.del(`/admin/api/users/${this.userId}`), 'The user was deleted.');
    if (ok) this.dispatchEvent(new UserDeletedEvent());
  }

  override render() {
    const d = this.detail;
    const name = d ? `${d.user.first_name} ${d.user.last_name}`.trim() || d.user.username : 'User';
    return html`<h1 tabindex="-1">${name}</h1>
      ${d ? this.#body(d) : html`<p>Loading…</p>`}${this.feedback()}`;
  }

  #body(d: UserDetail) {
    const u = d.user;
    return html`<dl>
        <dt>E-mail</dt>
        <dd>${u.email}${u.email_verified_at ? ' (confirmed)' : ''}</dd>
        <dt>Phone</dt>
        <dd>${u.phone ?? '—'}</dd>
        <dt>Status</dt>
        <dd class="user-status">${u.status}</dd>
        <dt>Reference id</dt>
        <dd>${d.reference_id ?? '—'}</dd>
        <dt>Template</dt>
        <dd>${d.template ? `${d.template.label} (${d.template.name})` : '—'}</dd>
        <dt>Country of the last IP</dt>
        <dd>${d.ip_country ?? '—'}</dd>
        <dt>Two-step authentication</dt>
        <dd class="two-factor">${twoFactorText(u)}</dd>
        <dt>Consent to biometric steps</dt>
        <dd class="consent">
          ${
            d.consent
              ? `${d.consent.decision === 'given' ? 'Given' : 'Declined'} on ${d.consent.at.replace('T', ' ').slice(0, 19)} UTC, text ${d.consent.text_version}, from ${d.consent.ip_country ?? 'an unknown country'}`
              : 'Not asked yet'
          }
        </dd>
      </dl>
      ${this.#renderEnrolments(d)}
      <h2>Verifications</h2>
      <table class="verifications">
        <thead>
          <tr>
            <th scope="col">Method</th>
            <th scope="col">Status</th>
            <th scope="col">Results</th>
            <th scope="col">Decision</th>
          </tr>
        </thead>
        <tbody>
          ${d.verifications.map(
            (v) =>
              html`<tr data-method=${v.key}>
                <th scope="row">${v.name}</th>
                <td class="status">${v.status.friendly}${v.remarks ? html`<br /><span class="muted">${v.remarks}</span>` : nothing}</td>
                <td>
                  ${verificationChecks(v)}
                  ${
                    Object.keys(v.results).length
                      ? html`<details>
                          <summary>Details (raw analysis JSON)</summary>
                          <pre>${JSON.stringify(v.results, null, 2)}</pre>
                        </details>`
                      : v.checks.length
                        ? nothing
                        : html`<span class="muted">None yet</span>`
                  }
                </td>
                <td class="decide">
                  <label
                    >Reason for the customer
                    <textarea data-method=${v.key} maxlength="2000" aria-description="Required to reject or to ask for a redo; sent in the webhook."></textarea>
                  </label>
                  <div class="row">
                    <button type="button" aria-label=${`Approve ${v.name}`} @click=${() => this.#move(v, 'complete')}>Approve</button>
                    <button type="button" class="danger" aria-label=${`Reject ${v.name}`} @click=${() => this.#move(v, 'rejected')}>Reject</button>
                    <button type="button" class="secondary" aria-label=${`Request redo of ${v.name}`} @click=${() => this.#move(v, 'reset')}>
                      Request redo
                    </button>
                  </div>
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
      ${renderDocumentRecords(d)}
      <admin-case .api=${this.api} user-id=${this.userId}></admin-case>
      <h2>Captured images</h2>
      ${renderCapturedImages(d)}
      <h2>Actions</h2>
      <form class="row" aria-label="Change status" @submit=${this.#setStatus}>
        <label
          >Status
          <select name="status">
            ${USER_STATUSES.map((s) => html`<option ?selected=${s === u.status}>${s}</option>`)}
          </select></label
        >
        <button type="submit">Change status</button>
      </form>
      <form class="row" aria-label="Switch template" @submit=${this.#switchTemplate}>
        <label
          >Template
          <select name="template">
            ${this.templates?.data.map((t) => html`<option value=${t.name} ?selected=${t.name === d.template?.name}>${t.label}</option>`) ?? nothing}
          </select>
        </label>
        <button type="submit">Switch template</button>
      </form>
      <p><button type="button" class="danger" @click=${() => this.#delete()}>Delete user</button></p>
      <admin-link-panel .api=${this.api} user-id=${this.userId} ?has-phone=${!!u.phone}></admin-link-panel>`;
  }
}

/** An enrolment in words: which factor since when, or how many passkeys of which kind. */
function enrolmentText(e: Enrolment): string {
  if (e.key === 'two_step') {
    const d = e.details;
    const how = d.method === 'sms' ? `SMS to a phone ending ${d.phone_ending ?? '??'}` : 'Authenticator app';
    const codes = d.recovery_codes_left === null ? '' : `, ${d.recovery_codes_left} recovery codes left`;
    return `${how}, since ${d.enabled_at.replace('T', ' ').slice(0, 19)} UTC${codes}`;
  }
  const n = e.details.passkeys.length;
  const last =
    e.details.passkeys
      .map((p) => p.last_used_at ?? p.created_at)
      .sort()
      .at(-1) ?? '';
  return `${n} passkey${n === 1 ? '' : 's'} for ${e.details.rp_id}, last used ${last.replace('T', ' ').slice(0, 19)} UTC`;
}

/** The user's second factor in words: which, since when (and the phone for SMS), or off. */
function twoFactorText(u: AdminUser): string {
  const options = u.two_factor_options;
  if (!options?.method) return 'Off';
  const how = options.method === 'sms' ? `SMS to ${u.two_factor_phone ?? 'an unknown phone'}` : 'authenticator app';
  return `On: ${how}${options.enabled_at ? ` since ${options.enabled_at} UTC` : ''}`;
}

/** A verification's checks as rows: what was checked, its outcome, why and the number behind it. */
function verificationChecks(v: VerificationDetail) {
  return checksTable(
    `Checks of ${v.name}`,
    v.checks.map((c) => ({ label: c.name.replaceAll('_', ' '), outcome: c.outcome, reason: c.reason, value: c.value })),
  );
}

if (!customElements.get('admin-user-page')) customElements.define('admin-user-page', AdminUserPage);

declare global {
  interface HTMLElementTagNameMap {
    'admin-user-page': AdminUserPage;
  }
  interface HTMLElementEventMap {
    'user-deleted': UserDeletedEvent;
  }
}
