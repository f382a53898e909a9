import { LitElement, css, html } from 'lit';

/**
 * A modal confirmation for destructive actions, on the native `<dialog>` (focus kept inside,
 * Esc cancels, focus returns to the button that opened it).
 */
export class AdminConfirm extends LitElement {
  static override styles = css`
    dialog {
      border: 1px solid var(--verity-border-strong, #6b7280);
      border-radius: 8px;
      padding: 1.25rem;
      max-width: 28rem;
      font-family: system-ui, sans-serif;
      color: var(--verity-text, #14171f);
    }
    .actions {
      display: flex;
      gap: 0.5rem;
      justify-content: flex-end;
      margin-top: 1rem;
    }
    button {
      font: inherit;
      padding: 0.35rem 0.8rem;
      border-radius: 4px;
      border: 1px solid var(--verity-primary, #1d4ed8);
      background: var(--verity-surface, #fff);
      color: var(--verity-primary, #1d4ed8);
      cursor: pointer;
    }
    button.danger {
      background: var(--verity-danger, #b91c1c);
      border-color: var(--verity-danger, #b91c1c);
      color: var(--verity-on-primary, #fff);
    }
    :focus-visible {
      outline: 3px solid var(--verity-focus, #c2410c);
      outline-offset: 2px;
    }
  `;

  static override properties = { message: { state: true }, confirmLabel: { state: true } };
  declare message: string;
  declare confirmLabel: string;
  #resolve: ((ok: boolean) => void) | undefined;

  constructor() {
    super();
    this.message = '';
    this.confirmLabel = 'Confirm';
  }

  /** Opens the dialog; resolves true when confirmed, false when cancelled (button or Esc). */
  async ask(message: string, confirmLabel: string): Promise<boolean> {
    this.message = message;
    this.confirmLabel = confirmLabel;
    await this.updateComplete;
    const dialog = this.renderRoot.querySelector('dialog')!;
    this.#resolve?.(false);
    return new Promise<boolean>((resolve) => {
      this.#resolve = resolve;
      dialog.showModal();
      this.renderRoot.querySelector<HTMLButtonElement>('button.cancel')?.focus();
    });
  }

  #close(ok: boolean): void {
    this.renderRoot.querySelector('dialog')?.close();
    this.#resolve?.(ok);
    this.#resolve = undefined;
  }

  override render() {
    return html`<dialog aria-labelledby="confirm-text" @cancel=${() => this.#close(false)}>
      <p id="confirm-text">${this.message}</p>
      <div class="actions">
        <button type="button" class="cancel" @click=${() => this.#close(false)}>Cancel</button>
        <button type="button" class="danger confirm" @click=${() => this.#close(true)}>${this.confirmLabel}</button>
      </div>
    </dialog>`;
  }
}

if (!customElements.get('admin-confirm')) customElements.define('admin-confirm', AdminConfirm);

declare global {
  interface HTMLElementTagNameMap {
    'admin-confirm': AdminConfirm;
  }
}
