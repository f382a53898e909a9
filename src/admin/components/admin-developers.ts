import { html, nothing } from 'lit';
import { query } from '../api.js';
import type { Page } from '../../api/admin/common.js';
import type { ApiKeyRow, CreatedApiKey } from '../../api/admin/developers.js';
import type { DeliveriesPage, Delivery, DeliveryDetail, Endpoint, EndpointWithSecret, RevealedSecret } from '../../api/admin/webhooks.js';
import type { PageChangeEvent } from './admin-pager.js';
import './admin-pager.js';
import { AdminView } from './admin-view.js';
import { states } from '../../internal/lit-states.js';

/** Methods with a step in Verity's flow (ids of spec 2.2). */
const WATCHABLE_METHODS = [
  [1, 'Email'],
  [2, 'Phone / SMS'],
  [3, 'Document / ID'],
  [8, 'Geolocation'],
  [20, 'Liveness'],
  [21, 'Knowledge'],
  [22, 'Selfie'],
] as const;

const EVENT_TYPES = ['verification.completed', 'verification.in-process', 'verification.pending', 'verification.rejected', 'user.status.changed'];

async function copy(text: string): Promise<void> {
  await navigator.clipboard.writeText(text);
}

/**
 * Developer settings: API keys (create with a name, shown once with a copy button, list with
 * prefix and last use, revoke), webhooks on the webhook admin routes (endpoints, events, secret
 * reveal/rotate, test payload, the delivery log with masked bodies, unmask, retry).
 */
export class AdminDevelopers extends AdminView {
  static override properties = {
    ...AdminView.properties,
    ...states('keys', 'keysPage', 'newKey', 'endpoints', 'secret', 'deliveries', 'deliveriesPage', 'deliveryState', 'delivery'),
  };
  declare keys: Page<ApiKeyRow> | undefined;
  declare keysPage: number;
  /** The key just created: shown this once. */
  declare newKey: string | undefined;
  declare endpoints: Endpoint[] | undefined;
  /** A signing secret being shown (after creation, reveal or rotation). */
  declare secret: { endpoint: number; value: string } | undefined;
  declare deliveries: DeliveriesPage | undefined;
  declare deliveriesPage: number;
  /** Filter of the delivery log: '', 'pending', 'succeeded' or 'failed'. */
  declare deliveryState: string;
  declare delivery: DeliveryDetail | undefined;

  constructor() {
    super();
    this.keysPage = 1;
    this.deliveriesPage = 1;
    this.deliveryState = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.loadKeys();
    void this.loadWebhooks();
  }

  async loadKeys(): Promise<void> {
    const keys = await this.run(() => this.client.get<Page<ApiKeyRow>>(`/admin/api/api-keys${query({ page: this.keysPage, per_page: 20 })}`));
    if (keys) this.keys = keys;
  }

  async loadWebhooks(): Promise<void> {
    const [endpoints, deliveries] = (await this.run(() =>
      Promise.all([
        this.client.get<{ data: Endpoint[] }>('/admin/api/webhooks/endpoints'),
        this.client.get<DeliveriesPage>(`/admin/api/webhooks/deliveries${query({ page: this.deliveriesPage, per_page: 20, state: this.deliveryState })}`),
      ]),
    )) ?? [undefined, undefined];
    if (endpoints) this.endpoints = endpoints.data;
    if (deliveries) this.deliveries = deliveries;
  }

  async #createKey(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const name = String(new FormData(form).get('name'));
    const res = await this.run(() => this.client.post<CreatedApiKey>('/admin/api/api-keys', { name }), 'API key created. Copy it now: it is not shown again.');
    if (res) {
      this.newKey = res.key;
      form.reset();
      await this.loadKeys();
    }
  }

  async #revoke(k: ApiKeyRow): Promise<void> {
    if (!(await this.confirmAction(`Revoke the key "${k.name}" (${k.prefix}…)? Requests with it will be refused at once.`, 'Revoke key'))) return;
    if (await this.run(() => this.client.del(`/admin/api/api-keys/${k.id}`), `Key "${k.name}" revoked.`)) await this.loadKeys();
  }

  async #createEndpoint(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const f = new FormData(form);
    const events = f.getAll('events').map(String);
    const methods = f.getAll('methods').map(Number);
    const res = await this.run(
      () =>
        this.client.post<EndpointWithSecret>('/admin/api/webhooks/endpoints', {
          url: String(f.get('url')),
          ...(events.length ? { events } : {}),
          ...(methods.length ? { methods } : {}),
        }),
      'Endpoint added. Copy its signing secret now.',
    );
    if (res) {
      this.secret = { endpoint: res.data.id, value: res.signing_secret };
      form.reset();
      await this.loadWebhooks();
    }
  }

  async #endpointAction(ep: Endpoint, action: 'reveal' | 'rotate' | 'test' | 'delete' | 'toggle'): Promise<void> {
    const base = `/admin/api/webhooks/endpoints/${ep.id}`;
    if (action === 'delete') {
      if (!(await this.confirmAction(`Delete the endpoint ${ep.url}? Events stop going there.`, 'Delete endpoint'))) return;
      if (await this.run(() => this.client.del(base), 'Endpoint deleted.')) await this.loadWebhooks();
    } else if (action === 'rotate') {
      if (!(await this.confirmAction('Rotate the signing secret? The old one keeps signing for 24 hours.', 'Rotate secret'))) return;
      const res = await this.run(() => this.client.post<EndpointWithSecret>(`${base}/secret/rotate`, {}), 'Secret rotated.');
      if (res) this.secret = { endpoint: ep.id, value: res.signing_secret };
    } else if (action === 'reveal') {
      const res = await this.run(() => this.client.post<RevealedSecret>(`${base}/secret/reveal`, {}));
      if (res) this.secret = { endpoint: ep.id, value: res.signing_secret };
    } else if (action === 'test') {
      if (await this.run(() => this.client.post(`${base}/test`, {}), 'Test payload queued.')) await this.loadWebhooks();
    } else {
      if (await this.run(() => this.client.patch(base, { enabled: !ep.enabled }), ep.enabled ? 'Endpoint disabled.' : 'Endpoint enabled.'))
        await this.loadWebhooks();
    }
  }

  async #openDelivery(id: number, reveal = false): Promise<void> {
    const res = await this.run(() => this.client.get<{ data: DeliveryDetail }>(`/admin/api/webhooks/deliveries/${id}${reveal ? '?reveal=true' : ''}`));
    if (res) this.delivery = res.data;
  }

  async #retry(d: Delivery): Promise<void> {
    if (await this.run(() => this.client.post(`/admin/api/webhooks/deliveries/${d.id}/retry`, {}), `Delivery ${d.id} queued again.`)) await this.loadWebhooks();
  }

  #keysSection() {
    const k = this.keys;
    return html`<h2 id="keys">API keys</h2>
      <form aria-labelledby="keys" class="new-key row" @submit=${this.#createKey}>
        <label>Name of the new key <input name="name" required maxlength="100" /></label>
        <button type="submit">Create key</button>
      </form>
      ${
        this.newKey
          ? html`<div class="new-key-shown">
              <p>Your new key (shown once):</p>
              <p class="secret" id="new-key">${this.newKey}</p>
              <button type="button" @click=${() => this.run(() => copy(this.newKey!), 'Key copied.')}>Copy key</button>
              <button type="button" class="secondary" @click=${() => (this.newKey = undefined)}>I have stored it</button>
            </div>`
          : nothing
      }
      ${
        k
          ? html`<table class="keys">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Prefix</th>
                    <th scope="col">Created</th>
                    <th scope="col">Last used</th>
                    <th scope="col">State</th>
                    <th scope="col"><span class="sr-only">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  ${k.data.map(
                    (row) =>
                      html`<tr>
                        <th scope="row">${row.name}</th>
                        <td><code>${row.prefix}…</code></td>
                        <td>${row.created_at}</td>
                        <td>${row.last_used_at ?? 'never'}</td>
                        <td>${row.revoked_at ? `revoked ${row.revoked_at}` : 'active'}</td>
                        <td>
                          ${row.revoked_at ? nothing : html`<button type="button" class="danger" aria-label=${`Revoke ${row.name}`} @click=${() => this.#revoke(row)}>Revoke</button>`}
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>
              <admin-pager
                label="API key pages"
                .page=${k.meta.page}
                .lastPage=${k.meta.last_page ?? 1}
                @page-change=${(e: PageChangeEvent) => {
                  this.keysPage = e.page;
                  void this.loadKeys();
                }}
              ></admin-pager>`
          : nothing
      }`;
  }

  #webhooksSection() {
    const d = this.deliveries;
    return html`<h2 id="webhooks">Webhooks</h2>
      <form aria-labelledby="webhooks" class="new-endpoint" @submit=${this.#createEndpoint}>
        <label>Endpoint URL <input name="url" type="url" required /></label>
        <fieldset>
          <legend>Events (none ticked: all)</legend>
          ${EVENT_TYPES.map((t) => html`<label class="inline"><input type="checkbox" name="events" value=${t} /> ${t}</label>`)}
        </fieldset>
        <fieldset>
          <legend>Verification methods to watch (none ticked: all)</legend>
          ${WATCHABLE_METHODS.map(([id, name]) => html`<label class="inline"><input type="checkbox" name="methods" value=${id} /> ${name}</label>`)}
        </fieldset>
        <div><button type="submit">Add endpoint</button></div>
      </form>
      ${
        this.secret
          ? html`<p>Signing secret of endpoint ${this.secret.endpoint}:</p>
              <p class="secret">${this.secret.value}</p>
              <button type="button" @click=${() => this.run(() => copy(this.secret!.value), 'Secret copied.')}>Copy secret</button>
              <button type="button" class="secondary" @click=${() => (this.secret = undefined)}>Hide secret</button>`
          : nothing
      }
      <table class="endpoints">
        <thead>
          <tr>
            <th scope="col">URL</th>
            <th scope="col">Events</th>
            <th scope="col">State</th>
            <th scope="col"><span class="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          ${(this.endpoints ?? []).map(
            (ep) =>
              html`<tr>
                <th scope="row">${ep.url}</th>
                <td>${ep.events.join(', ')}${ep.methods?.length ? html`<br /><span class="muted">methods ${ep.methods.join(', ')}</span>` : nothing}</td>
                <td>${ep.enabled ? 'enabled' : `disabled${ep.disabled_reason ? ` (${ep.disabled_reason})` : ''}`}</td>
                <td class="row">
                  <button type="button" class="secondary" @click=${() => this.#endpointAction(ep, 'test')}>Send test</button>
                  <button type="button" class="secondary" @click=${() => this.#endpointAction(ep, 'reveal')}>Reveal secret</button>
                  <button type="button" class="secondary" @click=${() => this.#endpointAction(ep, 'rotate')}>Rotate secret</button>
                  <button type="button" class="secondary" @click=${() => this.#endpointAction(ep, 'toggle')}>${ep.enabled ? 'Disable' : 'Enable'}</button>
                  <button type="button" class="danger" @click=${() => this.#endpointAction(ep, 'delete')}>Delete</button>
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
      <h3 id="deliveries">Delivery log</h3>
      <div class="row">
        <label
          >Show
          <select
            name="delivery-state"
            @change=${(e: Event) => {
              this.deliveryState = (e.target as HTMLSelectElement).value;
              this.deliveriesPage = 1;
              void this.loadWebhooks();
            }}
          >
            <option value="">All deliveries</option>
            <option value="failed">Failed</option>
            <option value="pending">Pending</option>
            <option value="succeeded">Succeeded</option>
          </select>
        </label>
        <button type="button" class="secondary" @click=${() => this.loadWebhooks()}>Refresh</button>
      </div>
      ${
        d
          ? html`<table class="deliveries">
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Endpoint</th>
                    <th scope="col">State</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Last status</th>
                    <th scope="col">Created</th>
                    <th scope="col"><span class="sr-only">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  ${d.data.map(
                    (row) =>
                      html`<tr data-state=${row.state}>
                        <th scope="row">${row.event_type}${row.test ? ' (test)' : ''}</th>
                        <td>${row.endpoint_url}</td>
                        <td class="state">${row.state}</td>
                        <td>${row.attempts}</td>
                        <td>${row.last_status ?? '—'}</td>
                        <td>${row.created_at}</td>
                        <td class="row">
                          <button type="button" class="secondary" aria-label=${`Show delivery ${row.id}`} @click=${() => this.#openDelivery(row.id)}>
                            Show
                          </button>
                          ${row.retryable ? html`<button type="button" aria-label=${`Retry delivery ${row.id}`} @click=${() => this.#retry(row)}>Retry</button>` : nothing}
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>
              <admin-pager
                label="Delivery pages"
                .page=${d.page}
                .lastPage=${Math.max(1, Math.ceil(d.total / d.per_page))}
                @page-change=${(e: PageChangeEvent) => {
                  this.deliveriesPage = e.page;
                  void this.loadWebhooks();
                }}
              ></admin-pager>`
          : nothing
      }
      ${
        this.delivery
          ? html`<section aria-labelledby="delivery-title" class="delivery">
              <h3 id="delivery-title">Delivery ${this.delivery.id}: ${this.delivery.event_type}</h3>
              <p>
                Body ${this.delivery.payload_masked ? 'masked' : 'in full'}:
                ${this.delivery.payload_masked ? html`<button type="button" class="secondary" @click=${() => this.#openDelivery(this.delivery!.id, true)}>Unmask</button>` : nothing}
              </p>
              <pre>${JSON.stringify(this.delivery.payload, null, 2)}</pre>
              <ul>
                ${this.delivery.attempts_log.map((a) => html`<li>Attempt ${a.attempt} at ${a.started_at}: ${a.outcome}${a.response_status ? ` (${a.response_status})` : ''}${a.error ? ` — ${a.error}` : ''}</li>`)}
              </ul>
            </section>`
          : nothing
      }`;
  }

  override render() {
    return html`<h1 tabindex="-1">Developers</h1>
      ${this.#keysSection()}${this.#webhooksSection()}${this.feedback()}`;
  }
}

if (!customElements.get('admin-developers')) customElements.define('admin-developers', AdminDevelopers);

declare global {
  interface HTMLElementTagNameMap {
    'admin-developers': AdminDevelopers;
  }
}
