import { LitElement, html, nothing, type CSSResultGroup, type TemplateResult } from 'lit';
import { AdminApiError, type AdminApi } from '../api.js';
import { adminStyles } from '../styles.js';
import './admin-confirm.js';
import type { AdminConfirm } from './admin-confirm.js';
import { states } from '../../internal/lit-states.js';

/**
 * Base of the dashboard's views: the API client handed down by `<admin-app>`, a status line read
 * out by screen readers (`role=status`) and an error line (`role=alert`), and a confirmation
 * dialog for destructive actions.
 */
export class AdminView extends LitElement {
  static override styles: CSSResultGroup = adminStyles;

  static override properties = {
    api: { attribute: false },
    ...states('status', 'error'),
  };

  /** The client of the admin JSON routes. */
  declare api: AdminApi | undefined;
  declare status: string;
  declare error: string;

  constructor() {
    super();
    this.api = undefined;
    this.status = '';
    this.error = '';
  }

  /** Runs an action, showing its outcome in the live regions; returns its result or undefined on failure. */
  protected async run<T>(action: () => Promise<T>, done?: string, field?: string): Promise<T | undefined> {
    this.error = '';
    // Reloads (no `done` message) keep the outcome of the action that caused them on screen.
    if (done) this.status = '';
    try {
      const result = await action();
      if (done) this.status = done;
      return result;
    } catch (error: unknown) {
      this.error = error instanceof AdminApiError ? error.messageFor(field) : 'Something went wrong.';
      return undefined;
    }
  }

  /** Asks before a destructive action. */
  protected async confirmAction(message: string, confirmLabel: string): Promise<boolean> {
    const dialog = this.renderRoot.querySelector<AdminConfirm>('admin-confirm');
    return dialog ? dialog.ask(message, confirmLabel) : false;
  }

  /**
   * The live regions and the confirmation dialog; every view renders this once, mostly below its
   * forms. The regions stick to the bottom of the window, so the outcome of a save near the top of
   * a long view (Settings) is seen where the user is, not only heard.
   */
  protected feedback(): TemplateResult {
    return html`<div class="feedback">
        <p role="status" class="ok">${this.status || nothing}</p>
        <p role="alert" class="error">${this.error || nothing}</p>
      </div>
      <admin-confirm></admin-confirm>`;
  }

  protected get client(): AdminApi {
    if (!this.api) throw new Error('no API client');
    return this.api;
  }
}
