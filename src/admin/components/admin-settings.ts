import { css, html, nothing } from 'lit';
import type { TemplatesAnswer } from '../../api/admin/templates.js';
import { adminStyles } from '../styles.js';
import { AdminView } from './admin-view.js';
import './admin-sign-in-providers.js';
import './admin-duplicates-setting.js';
import { knowledgeFields, knowledgeRequest } from './knowledge-questions.js';
import { lines, PREVIEW_DELAY_MS, previewUrl, UNSET_COLOURS, type Branding, type SettingsView } from './settings-model.js';
import type { LogoAnswer, SettingsAnswer } from '../../api/admin/settings.js';
import { states } from '../../internal/lit-states.js';

export { PREVIEW_DELAY_MS, PREVIEW_PATH, previewUrl, type SettingsView } from './settings-model.js';

/**
 * General settings, branding (logo upload, colours, live preview of the hosted page), self-signup,
 * retention, knowledge questions and geolocation rules.
 *
 * The branding preview is the real hosted page, rendered by the server with the unsaved branding
 * (and account name) in an iframe; it follows the edits, reloading shortly after the last one.
 * The framed page is sandboxed (scripts only: no forms, popups, navigation of the dashboard, or
 * access to it), and is a preview that starts nothing.
 */
export class AdminSettings extends AdminView {
  static override styles = [
    adminStyles,
    css`
      .preview {
        display: block;
        inline-size: 100%;
        max-inline-size: 44rem;
        block-size: 34rem;
        border: 1px solid var(--verity-border, #d5d9e0);
        border-radius: 8px;
        background: var(--verity-surface, #fff);
      }
    `,
  ];
  static override properties = {
    ...AdminView.properties,
    ...states('data', 'preview', 'draftName', 'previewSrc', 'templates'),
  };
  declare data: SettingsView | undefined;
  /** Branding as edited (before saving), for the live preview. */
  declare preview: Branding | undefined;
  /** The account name as edited in the general settings (before saving), for the live preview. */
  declare draftName: string;
  /** The preview frame's URL: the draft of {@link PREVIEW_DELAY_MS} ago. */
  declare previewSrc: string;
  declare templates: TemplatesAnswer | undefined;
  #previewTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    super();
    this.draftName = '';
    this.previewSrc = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
    void this.run(async () => {
      this.templates = await this.client.get<TemplatesAnswer>('/admin/api/templates');
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#previewTimer);
  }

  async load(): Promise<void> {
    const res = await this.run(() => this.client.get<SettingsAnswer>('/admin/api/settings'));
    if (res) this.#saved(res.data);
  }

  /**
   * Settings as saved: the drafts start again from them (except a draft the save did not cover:
   * saving the general settings keeps unsaved branding, and the other way round), and the
   * preview shows the result at once.
   */
  #saved(data: SettingsView, keep: { branding?: boolean; name?: boolean } = {}): void {
    this.data = data;
    if (!keep.branding || !this.preview) this.preview = { ...data.branding };
    if (!keep.name) this.draftName = data.account_name;
    clearTimeout(this.#previewTimer);
    this.previewSrc = previewUrl(this.draftName, this.preview);
  }

  /** A draft changed: the preview follows once the edits pause. */
  #draftChanged(): void {
    clearTimeout(this.#previewTimer);
    this.#previewTimer = setTimeout(() => {
      if (this.preview) this.previewSrc = previewUrl(this.draftName, this.preview);
    }, PREVIEW_DELAY_MS);
  }

  async #save(body: Record<string, unknown>, done: string): Promise<void> {
    const res = await this.run(() => this.client.patch<SettingsAnswer>('/admin/api/settings', body), done);
    if (res) this.#saved(res.data, { branding: !('branding' in body), name: !('account_name' in body) });
  }

  #general(e: SubmitEvent): void {
    e.preventDefault();
    const f = new FormData(e.target as HTMLFormElement);
    void this.#save(
      {
        account_name: String(f.get('account_name')),
        default_completion_url: String(f.get('default_completion_url')) || null,
        custom_domain: String(f.get('custom_domain')) || null,
        allowed_origins: lines(String(f.get('allowed_origins'))),
        link_lifetime_hours: Number(f.get('link_lifetime_hours')),
        handoff_enabled: f.get('handoff_enabled') === 'on',
        two_step_sms_allowed: f.get('two_step_sms_allowed') === 'on',
        bank_deposit_ttl_days: Number(f.get('bank_deposit_ttl_days')),
        liveness_move_seconds: Number(f.get('liveness_move_seconds')),
        default_locale: String(f.get('default_locale')) || null,
      },
      'General settings saved.',
    );
  }

  #branding(e: SubmitEvent): void {
    e.preventDefault();
    const p = this.preview!;
    // A logo removed in the draft is removed on save; a logo is only ever set by uploading one.
    const logo = p.logo_url === null && this.data?.branding.logo_url ? { logo_url: null } : {};
    void this.#save(
      { branding: { primary_color: p.primary_color, background_color: p.background_color, text_color: p.text_color, ...logo } },
      'Branding saved.',
    );
  }

  #removeLogo(): void {
    this.preview = { ...this.preview!, logo_url: null };
    this.status = 'Logo removed from the draft; save the branding to remove it.';
    this.#draftChanged();
  }

  async #logo(e: Event): Promise<void> {
    const file = (e.target as HTMLInputElement).files?.[0];
    if (!file) return;
    const res = await this.run(
      () => this.client.request<LogoAnswer>('POST', '/admin/api/branding/logo', file, { 'content-type': file.type || 'application/octet-stream' }),
      'Logo uploaded.',
      'logo',
    );
    if (res) await this.load();
  }

  #signup(e: SubmitEvent): void {
    e.preventDefault();
    const f = new FormData(e.target as HTMLFormElement);
    void this.#save(
      {
        signup: {
          enabled: f.get('enabled') === 'on',
          template: String(f.get('template')) || null,
          ask_name: f.get('ask_name') === 'on',
          ask_phone: f.get('ask_phone') === 'on',
        },
        retention: {
          images_days: f.get('images_days') ? Number(f.get('images_days')) : null,
          unconfirmed_signup_days: Number(f.get('unconfirmed_signup_days')),
        },
      },
      'Signup and retention saved.',
    );
  }

  #consent(e: SubmitEvent): void {
    e.preventDefault();
    const f = new FormData(e.target as HTMLFormElement);
    const text = String(f.get('consent_text')).trim();
    const url = String(f.get('privacy_url')).trim();
    void this.#save({ consent: { text: text || null, privacy_url: url || null } }, 'Consent text saved.');
  }

  #geo(e: SubmitEvent): void {
    e.preventDefault();
    const list = lines(String(new FormData(e.target as HTMLFormElement).get('allowed_countries'))).map((c) => c.toUpperCase());
    void this.#save({ allowed_countries: list.length ? list : null }, 'Geolocation rules saved.');
  }

  async #knowledge(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const body = knowledgeRequest(new FormData(form), this.data?.knowledge?.questions ?? []);
    const res = await this.run(() => this.client.put<SettingsAnswer>('/admin/api/knowledge', body), 'Knowledge questions saved.');
    if (!res) return;
    this.data = res.data;
    // What was typed is saved: left in the form, a second save would add the question again.
    for (const field of form.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('[name^="new-"]:not(select), [name^="answers-"]')) field.value = '';
    const kind = form.querySelector<HTMLSelectElement>('[name="new-kind"]');
    if (kind) kind.value = 'text';
  }

  #colour(key: 'primary_color' | 'background_color' | 'text_color', label: string) {
    return html`<label
      >${label}
      <input
        type="color"
        name=${key}
        .value=${this.preview?.[key] ?? UNSET_COLOURS[key]}
        @input=${(e: Event) => {
          this.preview = { ...this.preview!, [key]: (e.target as HTMLInputElement).value };
          this.#draftChanged();
        }}
    /></label>`;
  }

  override render() {
    return html`<h1 tabindex="-1">Settings</h1>
      ${this.data ? this.#body(this.data) : html`<p>Loading…</p>`}${this.feedback()}`;
  }

  #body(d: SettingsView) {
    const p = this.preview!;
    const k = d.knowledge;
    return html`<h2 id="general">General</h2>
      <form aria-labelledby="general" @submit=${this.#general}>
        <label
          >Account name
          <input
            name="account_name"
            required
            .value=${this.draftName}
            @input=${(e: Event) => {
              this.draftName = (e.target as HTMLInputElement).value;
              this.#draftChanged();
            }}
        /></label>
        <label>Default completion URL <input name="default_completion_url" type="url" .value=${d.default_completion_url ?? ''} /></label>
        <label
          >Custom domain for links <input name="custom_domain" type="url" placeholder="https://verify.example.com" .value=${d.custom_domain ?? ''}
        /></label>
        <label
          >Customer origins allowed to embed the modal (one per line)
          <textarea name="allowed_origins" rows="3" .value=${d.allowed_origins.join('\n')}></textarea>
        </label>
        <label>Link lifetime (hours) <input name="link_lifetime_hours" type="number" min="1" max="720" .value=${String(d.link_lifetime_hours)} /></label>
        <label
          >Default language
          <select name="default_locale">
            <option value="">The browser's</option>
            ${['en', 'es', 'fr', 'de', 'pt', 'ar'].map((l) => html`<option ?selected=${l === d.default_locale}>${l}</option>`)}
          </select>
        </label>
        <label class="inline"><input type="checkbox" name="handoff_enabled" ?checked=${d.handoff_enabled} /> Offer continuing on a phone (QR hand-off)</label>
        <label class="inline"
          ><input type="checkbox" name="two_step_sms_allowed" ?checked=${d.two_step_sms_allowed} /> Two-Step Authentication: let users take codes by SMS instead
          of an authenticator app</label
        >
        <label
          >Bank: days to enter the micro-deposits
          <input type="number" name="bank_deposit_ttl_days" min="1" max="60" required .value=${String(d.bank_deposit_ttl_days)}
        /></label>
        <label
          >Liveness: seconds for each move before the attempt ends
          <input type="number" name="liveness_move_seconds" min="10" max="30" required .value=${String(d.liveness_move_seconds)}
        /></label>
        <div><button type="submit">Save general settings</button></div>
      </form>

      <h2 id="branding">Branding</h2>
      <form aria-labelledby="branding" @submit=${this.#branding}>
        <label>Logo (PNG, JPEG or WebP) <input type="file" name="logo" accept="image/png,image/jpeg,image/webp" @change=${this.#logo} /></label>
        ${p.logo_url ? html`<div><button type="button" class="secondary" @click=${this.#removeLogo}>Remove logo</button></div>` : nothing}
        <div class="row">
          ${this.#colour('primary_color', 'Primary colour')}${this.#colour('background_color', 'Background')}${this.#colour('text_color', 'Text')}
        </div>
        <div><button type="submit">Save branding</button></div>
      </form>
      <h3>Preview of the hosted page</h3>
      <p class="muted" id="preview-note">
        The page your users see, with the account name and branding above as you edit them, before you save. Nothing in the preview starts or sends anything.
      </p>
      <iframe class="preview" title="Preview of the hosted page" aria-describedby="preview-note" sandbox="allow-scripts" src=${this.previewSrc}></iframe>

      <h2 id="signup">Self-signup and retention</h2>
      <form aria-labelledby="signup" @submit=${this.#signup}>
        <label class="inline"><input type="checkbox" name="enabled" ?checked=${d.signup.enabled} /> People may sign up at <a href="/signup">/signup</a></label>
        <label
          >Template for people who sign up
          <select name="template">
            <option value="">Account default</option>
            ${this.templates?.data.map((t) => html`<option value=${t.name} ?selected=${t.name === d.signup.template}>${t.label}</option>`) ?? nothing}
          </select>
        </label>
        <label class="inline"><input type="checkbox" name="ask_name" ?checked=${d.signup.ask_name} /> Ask for the name</label>
        <label class="inline"><input type="checkbox" name="ask_phone" ?checked=${d.signup.ask_phone} /> Ask for a phone number</label>
        <label
          >Keep captured images for (days; empty: until the user is deleted)
          <input name="images_days" type="number" min="1" .value=${d.retention.images_days === null ? '' : String(d.retention.images_days)}
        /></label>
        <label
          >Delete unconfirmed signups after (days)
          <input name="unconfirmed_signup_days" type="number" min="1" .value=${String(d.retention.unconfirmed_signup_days)}
        /></label>
        <div><button type="submit">Save signup and retention</button></div>
      </form>
      <admin-duplicates-setting .api=${this.api}></admin-duplicates-setting>

      <h2 id="consent">Consent before biometric steps</h2>
      <form aria-labelledby="consent" @submit=${this.#consent}>
        <p class="muted" id="consent-note">
          Shown before any camera or biometric step; the user must agree before it starts, and the agreement is recorded with its time, this text's version (now
          <code>${d.consent.text_version}</code>) and the country of the user's address. Empty: the default text, in the user's language. A changed text asks
          users again.
        </p>
        <label
          >Consent text (empty: the default)
          <textarea name="consent_text" rows="5" maxlength="4000" aria-describedby="consent-note" .value=${d.consent.text ?? ''}></textarea>
        </label>
        <label
          >Privacy policy URL <input name="privacy_url" type="url" placeholder="https://example.com/privacy" .value=${d.consent.privacy_url ?? ''}
        /></label>
        <div><button type="submit">Save consent text</button></div>
      </form>

      <h2 id="geo">Geolocation rules</h2>
      <form aria-labelledby="geo" @submit=${this.#geo}>
        <label
          >Allowed countries or regions (ISO codes such as DE, FR, or EU; empty: anywhere)
          <input name="allowed_countries" .value=${(d.allowed_countries ?? []).join(', ')}
        /></label>
        <div><button type="submit">Save geolocation rules</button></div>
      </form>

      <h2 id="knowledge">Knowledge questions</h2>
      <form aria-labelledby="knowledge" @submit=${this.#knowledge}>
        ${knowledgeFields(k)}
        <div><button type="submit">Save knowledge questions</button></div>
      </form>
      <admin-sign-in-providers .api=${this.api}></admin-sign-in-providers>`;
  }
}

if (!customElements.get('admin-settings')) customElements.define('admin-settings', AdminSettings);

declare global {
  interface HTMLElementTagNameMap {
    'admin-settings': AdminSettings;
  }
}
