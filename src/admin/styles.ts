import { css } from 'lit';

/**
 * Styles shared by the dashboard's views, from the tokens of `src/theme/tokens.css` (light and
 * dark). Each var() keeps the light value as its fallback, so a view shown without the page's
 * stylesheet (a component test, an embed) still reads right; the colours meet WCAG AA.
 */
export const adminStyles = css`
  :host {
    display: block;
    color: var(--verity-text, #14171f);
    font-family: var(--verity-font, system-ui, sans-serif);
    font-size: var(--verity-text-md, 1rem);
    line-height: var(--verity-line, 1.5);
  }
  :host([hidden]) {
    display: none;
  }
  h1 {
    font-size: var(--verity-text-xl, 1.5rem);
    line-height: 1.25;
    margin: 0 0 var(--verity-space-4, 1rem);
  }
  h2 {
    font-size: var(--verity-text-lg, 1.2rem);
    line-height: 1.3;
    margin: var(--verity-space-5, 1.5rem) 0 var(--verity-space-2, 0.5rem);
  }
  h3 {
    font-size: var(--verity-text-md, 1rem);
    margin: var(--verity-space-4, 1rem) 0 var(--verity-space-2, 0.5rem);
  }
  .muted {
    color: var(--verity-muted, #4a5161);
  }
  table {
    border-collapse: collapse;
    width: 100%;
    margin-block: var(--verity-space-2, 0.5rem);
    background: var(--verity-surface, #fff);
  }
  th,
  td {
    text-align: start;
    padding: var(--verity-space-2, 0.5rem);
    border-bottom: 1px solid var(--verity-border, #d5d9e0);
    vertical-align: top;
  }
  th {
    font-weight: 600;
    background: var(--verity-surface-2, #eef1f5);
  }
  form,
  fieldset {
    display: grid;
    gap: var(--verity-space-3, 0.75rem);
    max-width: 40rem;
  }
  fieldset {
    border: 1px solid var(--verity-border, #d5d9e0);
    border-radius: var(--verity-radius, 6px);
    padding: var(--verity-space-3, 0.75rem);
  }
  /* A field never pushes the page wider than a phone: a select as wide as its longest option shrinks to the row. */
  label {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    max-inline-size: 100%;
    gap: var(--verity-space-1, 0.25rem);
    font-weight: 500;
  }
  label.inline {
    display: flex;
    gap: var(--verity-space-2, 0.5rem);
    align-items: center;
    font-weight: 400;
  }
  input,
  select,
  textarea {
    max-inline-size: 100%;
    font: inherit;
    padding: 0.35rem var(--verity-space-2, 0.5rem);
    border: 1px solid var(--verity-border-strong, #6b7280);
    border-radius: var(--verity-radius, 6px);
    background: var(--verity-surface, #fff);
    color: inherit;
  }
  button {
    font: inherit;
    font-weight: 500;
    padding: 0.35rem var(--verity-space-3, 0.75rem);
    border-radius: var(--verity-radius, 6px);
    border: 1px solid var(--verity-primary, #1d4ed8);
    background: var(--verity-primary, #1d4ed8);
    color: var(--verity-on-primary, #fff);
    cursor: pointer;
  }
  button.secondary {
    background: var(--verity-surface, #fff);
    color: var(--verity-link, #1d4ed8);
  }
  button.danger {
    background: var(--verity-danger, #b91c1c);
    border-color: var(--verity-danger, #b91c1c);
    color: var(--verity-on-danger, #fff);
  }
  button[disabled] {
    opacity: 0.6;
    cursor: not-allowed;
  }
  :focus-visible {
    outline: var(--verity-focus-width, 3px) solid var(--verity-focus, #c2410c);
    outline-offset: 2px;
  }
  a {
    color: var(--verity-link, #1d4ed8);
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: var(--verity-space-2, 0.5rem);
    align-items: end;
  }
  .error {
    color: var(--verity-danger, #b91c1c);
  }
  .ok {
    color: var(--verity-ok, #166534);
  }
  .feedback {
    position: sticky;
    bottom: 0;
    z-index: 1;
  }
  .feedback > p:not(:empty) {
    margin: 0 0 var(--verity-space-2, 0.5rem);
    padding: var(--verity-space-2, 0.5rem) 0.75rem;
    background: var(--verity-surface, #fff);
    border: 1px solid var(--verity-border, #d5d9e0);
    border-radius: var(--verity-radius, 6px);
    box-shadow: 0 2px 8px rgb(0 0 0 / 12%);
  }
  .secret {
    font-family: var(--verity-mono, ui-monospace, monospace);
    background: var(--verity-surface-2, #eef1f5);
    padding: 0.3rem var(--verity-space-2, 0.5rem);
    border-radius: var(--verity-radius, 6px);
    word-break: break-all;
  }
  /* On a phone a wide table scrolls inside itself instead of widening the page. */
  @media (max-width: 40rem) {
    table {
      display: block;
      overflow-x: auto;
    }
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
`;

/** A check's outcome in words and in the tokens' colours: the user page's verifications and the case's checks. */
export const outcomeStyles = css`
  tr.failed .outcome {
    color: var(--verity-danger, #b91c1c);
    font-weight: 600;
  }
  tr.flagged .outcome {
    color: var(--verity-warn, #92400e);
    font-weight: 600;
  }
  tr.passed .outcome {
    color: var(--verity-ok, #166534);
  }
`;
