import { html, nothing, svg } from 'lit';
import { qrPath } from '../../steps/handoff/qr.js';
import { query } from '../api.js';
import type { AdminRow, InviteAnswer, TotpSetup } from '../../api/admin/admins.js';
import type { Page } from '../../api/admin/common.js';
import type { AuditEntry, OutboxMessage } from '../../api/admin/developers.js';
import type { PageChangeEvent } from './admin-pager.js';
import './admin-pager.js';
import { AdminView } from './admin-view.js';
import { states } from '../../internal/lit-states.js';

/** "12 messages", "1 e-mail", "no texts": the outbox's total for the chosen channel. */
export function outboxCount(total: number, channel: '' | 'email' | 'sms'): string {
  const [one, many] = channel === 'email' ? ['e-mail', 'e-mails'] : channel === 'sms' ? ['text', 'texts'] : ['message', 'messages'];
  return total === 0 ? `No ${many} in the outbox.` : `${total} ${total === 1 ? one : many} in the outbox.`;
}

/** The outbox (e-mails and texts of the embedded default), the audit log, and admins (invite, TOTP). */
export class AdminActivity extends AdminView {
  static override properties = {
    ...AdminView.properties,
    ...states('outbox', 'outboxPage', 'outboxChannel', 'audit', 'auditPage', 'admins', 'invite', 'totp'),
  };
  declare outbox: Page<OutboxMessage> | undefined;
  declare outboxPage: number;
  /** The outbox filter: every message, or one channel. */
  declare outboxChannel: '' | 'email' | 'sms';
  declare audit: Page<AuditEntry> | undefined;
  declare auditPage: number;
  declare admins: Page<AdminRow> | undefined;
  declare invite: string | undefined;
  declare totp: TotpSetup | undefined;

  constructor() {
    super();
    this.outboxPage = 1;
    this.outboxChannel = '';
    this.auditPage = 1;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.loadOutbox();
    void this.loadAudit();
    void this.loadAdmins();
  }

  async loadOutbox(): Promise<void> {
    const r = await this.run(() =>
      this.client.get<Page<OutboxMessage>>(`/admin/api/outbox${query({ page: this.outboxPage, per_page: 10, channel: this.outboxChannel })}`),
    );
    if (r) this.outbox = r;
  }
  async loadAudit(): Promise<void> {
    const r = await this.run(() => this.client.get<Page<AuditEntry>>(`/admin/api/audit${query({ page: this.auditPage, per_page: 20 })}`));
    if (r) this.audit = r;
  }
  async loadAdmins(): Promise<void> {
    const r = await this.run(() => this.client.get<Page<AdminRow>>('/admin/api/admins?per_page=100'));
    if (r) this.admins = r;
  }

  async #invite(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const r = await this.run(
      () => this.client.post<InviteAnswer>('/admin/api/admins/invites', { email: String(new FormData(form).get('email')) }),
      'Invitation made: send the link to the person.',
    );
    if (r) {
      this.invite = r.url;
      form.reset();
    }
  }

  async #removeAdmin(a: AdminRow): Promise<void> {
    if (!(await this.confirmAction(`Remove the admin ${a.email}?`, 'Remove admin'))) return;
    if (await this.run(() => this.client.del(`/admin/api/admins/${a.id}`), 'Admin removed.')) await this.loadAdmins();
  }

  async #startTotp(): Promise<void> {
    const r = await this.run(() => this.client.post<TotpSetup>('/admin/api/me/totp', {}));
    if (r) this.totp = r;
  }

  async #enableTotp(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const code = String(new FormData(e.target as HTMLFormElement).get('code'));
    if (await this.run(() => this.client.post('/admin/api/me/totp/enable', { code }), 'Two-factor sign-in is on.', 'code')) {
      this.totp = undefined;
      await this.loadAdmins();
    }
  }

  async #disableTotp(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const code = String(new FormData(e.target as HTMLFormElement).get('code'));
    if (!(await this.confirmAction('Turn off two-factor sign-in?', 'Turn off'))) return;
    if (await this.run(() => this.client.del('/admin/api/me/totp', { code }), 'Two-factor sign-in is off.', 'code')) await this.loadAdmins();
  }

  #totpSection() {
    const me = this.admins?.data.find((a) => a.me);
    if (!me) return nothing;
    if (me.totp) {
      return html`<form aria-label="Turn off two-factor sign-in" class="row" @submit=${this.#disableTotp}>
        <label>Current code <input name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required /></label>
        <button type="submit" class="danger">Turn off two-factor sign-in</button>
      </form>`;
    }
    if (!this.totp) return html`<button type="button" @click=${() => this.#startTotp()}>Set up two-factor sign-in</button>`;
    const qr = qrPath(this.totp.uri);
    return html`<p>Scan this with an authenticator app, or type the key <span class="secret">${this.totp.secret}</span>.</p>
      <svg role="img" aria-label="QR code for the authenticator app" viewBox="0 0 ${qr.size} ${qr.size}" width="180" height="180" shape-rendering="crispEdges">
        ${svg`<rect width=${qr.size} height=${qr.size} fill="#fff"></rect><path d=${qr.d} fill="#000"></path>`}
      </svg>
      <form aria-label="Confirm two-factor sign-in" class="row" @submit=${this.#enableTotp}>
        <label>Code from the app <input name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" required /></label>
        <button type="submit">Turn on</button>
      </form>`;
  }

  override render() {
    return html`<h1 tabindex="-1">Activity and admins</h1>
      <h2 id="outbox">Outbox</h2>
      <p class="muted">E-mails and texts written here instead of being sent (no SMTP or SMS provider configured).</p>
      <label class="inline"
        >Show
        <select
          name="outbox-channel"
          @change=${(e: Event) => {
            this.outboxChannel = (e.target as HTMLSelectElement).value as AdminActivity['outboxChannel'];
            this.outboxPage = 1;
            void this.loadOutbox();
          }}
        >
          <option value="" ?selected=${this.outboxChannel === ''}>All messages</option>
          <option value="email" ?selected=${this.outboxChannel === 'email'}>E-mails</option>
          <option value="sms" ?selected=${this.outboxChannel === 'sms'}>Texts</option>
        </select></label
      >
      ${
        this.outbox
          ? html`<p class="outbox-count">${outboxCount(this.outbox.meta.total ?? 0, this.outboxChannel)}</p>
              <table class="outbox">
                <thead>
                  <tr>
                    <th scope="col">To</th>
                    <th scope="col">Channel</th>
                    <th scope="col">Subject</th>
                    <th scope="col">Written</th>
                    <th scope="col">Message</th>
                  </tr>
                </thead>
                <tbody>
                  ${this.outbox.data.map(
                    (m) =>
                      html`<tr>
                        <td>${m.to}</td>
                        <td>${m.channel}</td>
                        <td>${m.subject}</td>
                        <td>${m.created_at}</td>
                        <td>
                          <details>
                            <summary>Show</summary>
                            <pre>${m.text}</pre>
                          </details>
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>
              <admin-pager
                label="Outbox pages"
                .page=${this.outbox.meta.page}
                .lastPage=${this.outbox.meta.last_page ?? 1}
                @page-change=${(e: PageChangeEvent) => {
                  this.outboxPage = e.page;
                  void this.loadOutbox();
                }}
              ></admin-pager>`
          : nothing
      }
      <h2 id="audit">Audit log</h2>
      ${
        this.audit
          ? html`<table class="audit">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    <th scope="col">What</th>
                    <th scope="col">Target</th>
                    <th scope="col">Details</th>
                  </tr>
                </thead>
                <tbody>
                  ${this.audit.data.map(
                    (a) =>
                      html`<tr>
                        <td>${a.created_at}</td>
                        <td>${a.admin_email}</td>
                        <td>${a.action}</td>
                        <td>${a.target_type}${a.target_id ? ` ${a.target_id}` : ''}</td>
                        <td><code>${JSON.stringify(a.details)}</code></td>
                      </tr>`,
                  )}
                </tbody>
              </table>
              <admin-pager
                label="Audit log pages"
                .page=${this.audit.meta.page}
                .lastPage=${this.audit.meta.last_page ?? 1}
                @page-change=${(e: PageChangeEvent) => {
                  this.auditPage = e.page;
                  void this.loadAudit();
                }}
              ></admin-pager>`
          : nothing
      }
      <h2 id="admins">Admins</h2>
      <ul>
        ${(this.admins?.data ?? []).map(
          (a) =>
            html`<li>
              ${a.email}${a.me ? ' (you)' : ''}${a.totp ? ', two-factor on' : ''}
              ${a.me ? nothing : html`<button type="button" class="danger" aria-label=${`Remove ${a.email}`} @click=${() => this.#removeAdmin(a)}>Remove</button>`}
            </li>`,
        )}
      </ul>
      <form aria-labelledby="admins" class="row" @submit=${this.#invite}>
        <label>Invite by e-mail <input name="email" type="email" required /></label>
        <button type="submit">Make invitation link</button>
      </form>
      ${this.invite ? html`<p>Invitation link (valid 72 hours): <span class="secret">${this.invite}</span></p>` : nothing}
      <h3>Your two-factor sign-in</h3>
      ${this.#totpSection()} ${this.feedback()}`;
  }
}

if (!customElements.get('admin-activity')) customElements.define('admin-activity', AdminActivity);

declare global {
  interface HTMLElementTagNameMap {
    'admin-activity': AdminActivity;
  }
}
