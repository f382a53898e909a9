import { LitElement, css, html } from 'lit';

/** Fired by `<admin-pager>` when the admin picks another page (not composed: the view listens). */
export class PageChangeEvent extends Event {
  constructor(readonly page: number) {
    super('page-change');
  }
}

/** Previous / next navigation for a server-side paginated list. */
export class AdminPager extends LitElement {
  static override styles = css`
    nav {
      display: flex;
      gap: 0.75rem;
      align-items: center;
      margin-block: 0.5rem;
    }
    button {
      font: inherit;
      padding: 0.3rem 0.7rem;
      border-radius: 4px;
      border: 1px solid var(--verity-primary, #1d4ed8);
      background: var(--verity-surface, #fff);
      color: var(--verity-primary, #1d4ed8);
      cursor: pointer;
    }
    button[disabled] {
      opacity: 0.6;
      cursor: not-allowed;
    }
    :focus-visible {
      outline: 3px solid var(--verity-focus, #c2410c);
      outline-offset: 2px;
    }
  `;
  static override properties = {
    page: { type: Number },
    lastPage: { type: Number, attribute: 'last-page' },
    hasMore: { type: Boolean, attribute: 'has-more' },
    label: { type: String },
  };
  declare page: number;
  /** Last page when the total is known; 0 when only `hasMore` is known. */
  declare lastPage: number;
  declare hasMore: boolean;
  /** What the list is, for the navigation landmark's name. */
  declare label: string;

  constructor() {
    super();
    this.page = 1;
    this.lastPage = 0;
    this.hasMore = false;
    this.label = 'Pages';
  }

  override render() {
    const next = this.lastPage ? this.page < this.lastPage : this.hasMore;
    return html`<nav aria-label=${this.label}>
      <button type="button" ?disabled=${this.page <= 1} @click=${() => this.dispatchEvent(new PageChangeEvent(this.page - 1))}>Previous page</button>
      <span>Page ${this.page}${this.lastPage ? html` of ${this.lastPage}` : ''}</span>
      <button type="button" ?disabled=${!next} @click=${() => this.dispatchEvent(new PageChangeEvent(this.page + 1))}>Next page</button>
    </nav>`;
  }
}

if (!customElements.get('admin-pager')) customElements.define('admin-pager', AdminPager);

declare global {
  interface HTMLElementTagNameMap {
    'admin-pager': AdminPager;
  }
  interface HTMLElementEventMap {
    'page-change': PageChangeEvent;
  }
}
