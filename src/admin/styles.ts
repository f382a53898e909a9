import { css } from 'lit';

/** Styles shared by the dashboard's views. Colours meet WCAG AA contrast on white. */
export const adminStyles = css`
  :host {
    display: block;
    color: #14171f;
    font-family: system-ui, sans-serif;
    line-height: 1.5;
  }
  :host([hidden]) {
    display: none;
  }
  h1 {
    font-size: 1.5rem;
    margin: 0 0 1rem;
  }
  h2 {
    font-size: 1.2rem;
    margin: 1.5rem 0 0.5rem;
  }
  h3 {
    font-size: 1rem;
    margin: 1rem 0 0.5rem;
  }
  .muted {
    color: #4a5161;
  }
  table {
    border-collapse: collapse;
    width: 100%;
    margin-block: 0.5rem;
  }
  th,
  td {
    text-align: start;
    padding: 0.4rem 0.5rem;
    border-bottom: 1px solid #d5d9e0;
    vertical-align: top;
  }
  th {
    font-weight: 600;
    background: #f4f6f9;
  }
  form,
  fieldset {
    display: grid;
    gap: 0.6rem;
    max-width: 40rem;
  }
  fieldset {
    border: 1px solid #d5d9e0;
    border-radius: 6px;
    padding: 0.75rem;
  }
  label {
    display: grid;
    gap: 0.2rem;
    font-weight: 500;
  }
  label.inline {
    display: flex;
    gap: 0.4rem;
    align-items: center;
    font-weight: 400;
  }
  input,
  select,
  textarea {
    font: inherit;
    padding: 0.35rem 0.5rem;
    border: 1px solid #6b7280;
    border-radius: 4px;
    background: #fff;
    color: inherit;
  }
  button {
    font: inherit;
    padding: 0.35rem 0.8rem;
    border-radius: 4px;
    border: 1px solid #1d4ed8;
    background: #1d4ed8;
    color: #fff;
    cursor: pointer;
  }
  button.secondary {
    background: #fff;
    color: #1d4ed8;
  }
  button.danger {
    background: #b91c1c;
    border-color: #b91c1c;
  }
  button[disabled] {
    opacity: 0.6;
    cursor: not-allowed;
  }
  :focus-visible {
    outline: 3px solid #f59e0b;
    outline-offset: 2px;
  }
  a {
    color: #1d4ed8;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: end;
  }
  .error {
    color: #b91c1c;
  }
  .ok {
    color: #166534;
  }
  .secret {
    font-family: ui-monospace, monospace;
    background: #f4f6f9;
    padding: 0.3rem 0.5rem;
    border-radius: 4px;
    word-break: break-all;
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
