import { html } from 'lit';
import { adminStyles } from '../styles.js';
import { AdminView } from './admin-view.js';
import type { SettingsAnswer } from '../../api/admin/settings.js';

/** What the account does when a document number or face is already on another user. */
export type DuplicateMode = SettingsAnswer['data']['duplicates']['mode'];

const MODES: readonly (readonly [DuplicateMode, string])[] = [
  ['review', 'Flag both users and send the new one to review'],
  ['flag', 'Flag both users only'],
  ['off', 'Off: keep and compare nothing'],
];

/**
 * The duplicate-detection setting of the account (part of the settings page): review (default),
 * flag only, or off.
 *
 * @tagname admin-duplicates-setting
 */
export class AdminDuplicatesSetting extends AdminView {
  static override styles = adminStyles;
  static override properties = { ...AdminView.properties, mode: { state: true } };
  declare mode: DuplicateMode | null;

  constructor() {
    super();
    this.mode = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load();
  }

  async #load(): Promise<void> {
    const answer = await this.run(() => this.client.get<SettingsAnswer>('/admin/api/settings'));
    if (answer) this.mode = answer.data.duplicates.mode;
  }

  async #save(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    const mode = String(new FormData(e.target as HTMLFormElement).get('mode')) as DuplicateMode;
    const ok = await this.run(() => this.client.request('PATCH', '/admin/api/settings', { duplicates: { mode } }), 'Duplicate detection saved.');
    if (ok) this.mode = mode;
  }

  override render() {
    return html`<h2 id="duplicates">Duplicate detection</h2>
      <p class="muted" id="duplicates-note">
        A document number (same type and issuer) or a face already seen on another user of this account. Faces are kept as numeric descriptors, sealed, never as
        images, and go with the user when the user is deleted.
      </p>
      ${
        this.mode === null
          ? html`<p>Loading…</p>`
          : html`<form aria-labelledby="duplicates" @submit=${this.#save}>
              <fieldset aria-describedby="duplicates-note">
                <legend>When a duplicate is found</legend>
                ${MODES.map(([value, label]) => html`<label class="inline"><input type="radio" name="mode" value=${value} ?checked=${value === this.mode} /> ${label}</label>`)}
              </fieldset>
              <div><button type="submit">Save duplicate detection</button></div>
            </form>`
      }
      ${this.feedback()}`;
  }
}

if (!customElements.get('admin-duplicates-setting')) customElements.define('admin-duplicates-setting', AdminDuplicatesSetting);

declare global {
  interface HTMLElementTagNameMap {
    'admin-duplicates-setting': AdminDuplicatesSetting;
  }
}
