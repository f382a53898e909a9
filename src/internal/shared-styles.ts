import { css } from 'lit';

/** Styles shared by the flow and its steps: themed through `--verify-*` custom properties. */
export const sharedStyles = css`
  :host {
    display: block;
    color: var(--verify-text, #14171f);
    font-family: var(--verify-font, system-ui, sans-serif);
    line-height: 1.5;
  }
  :host([hidden]) {
    display: none;
  }
  h2 {
    font-size: var(--verify-heading-size, 1.35rem);
    margin: 0 0 0.5rem;
  }
  p {
    margin: 0 0 1rem;
  }
  .muted {
    color: var(--verify-muted, #4a5161);
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.75rem;
    margin-block-start: 1rem;
  }
  button,
  .button {
    font: inherit;
    font-weight: 600;
    min-height: 2.75rem;
    padding: 0.6em 1.25em;
    border-radius: var(--verify-radius, 8px);
    border: 2px solid var(--verify-primary, #1f4fd6);
    background: var(--verify-primary, #1f4fd6);
    color: var(--verify-on-primary, #fff);
    cursor: pointer;
    text-decoration: none;
    display: inline-flex;
    align-items: center;
    justify-content: center;
  }
  button.secondary,
  .button.secondary {
    background: transparent;
    color: var(--verify-primary, #1f4fd6);
  }
  button.link {
    background: none;
    border: none;
    color: var(--verify-link, #1a43b8);
    text-decoration: underline;
    padding-inline: 0.25em;
  }
  button[disabled],
  button[aria-disabled='true'] {
    opacity: 0.55;
    cursor: not-allowed;
  }
  button:focus-visible,
  input:focus-visible,
  select:focus-visible,
  a:focus-visible,
  [tabindex]:focus-visible {
    outline: 3px solid var(--verify-focus, #ffbf47);
    outline-offset: 2px;
  }
  label {
    display: block;
    font-weight: 600;
    margin-block-end: 0.25rem;
  }
  input,
  select {
    font: inherit;
    width: 100%;
    box-sizing: border-box;
    min-height: 2.75rem;
    padding: 0.5em 0.75em;
    border: 2px solid var(--verify-border, #6b7280);
    border-radius: var(--verify-radius, 8px);
    background: var(--verify-input-background, #fff);
    color: inherit;
  }
  input[type='radio'],
  input[type='checkbox'] {
    inline-size: 1.25rem;
    block-size: 1.25rem;
    min-height: 0;
    margin: 0;
    padding: 0;
    accent-color: var(--verify-primary, #1f4fd6);
  }
  fieldset {
    border: none;
    padding: 0;
    margin: 0 0 1rem;
  }
  legend {
    font-weight: 600;
    margin-block-end: 0.5rem;
    padding: 0;
  }
  .choice {
    display: flex;
    align-items: center;
    gap: 0.6rem;
    font-weight: 400;
    min-block-size: 2.75rem;
  }
  input[aria-invalid='true'] {
    border-color: var(--verify-danger, #b3261e);
  }
  .field {
    margin-block-end: 1rem;
  }
  .error {
    color: var(--verify-danger, #b3261e);
    font-weight: 600;
  }
  .notice {
    padding: 0.75rem 1rem;
    border-radius: var(--verify-radius, 8px);
    background: var(--verify-notice-background, #eef3ff);
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
  @media (prefers-reduced-motion: reduce) {
    * {
      animation: none !important;
      transition: none !important;
    }
  }
`;
