import { css } from 'lit';

export default css`
  :host {
    display: inline-block;
    font-family: var(--verify-font, system-ui, sans-serif);
  }
  :host([hidden]) {
    display: none;
  }
  button {
    font: inherit;
    font-weight: 600;
    padding: var(--verify-button-padding, 0.75em 1.5em);
    border-radius: var(--verify-radius, 8px);
    border: var(--verify-button-border, none);
    background: var(--verify-button-background, var(--verify-primary, #1f4fd6));
    color: var(--verify-button-color, var(--verify-on-primary, #fff));
    cursor: pointer;
  }
  button:focus-visible {
    outline: 3px solid var(--verify-focus, #ffbf47);
    outline-offset: 2px;
  }
  [aria-disabled='true'] {
    opacity: 0.6;
    cursor: not-allowed;
  }
  [aria-busy='true']::after {
    content: ' …';
  }
  dialog {
    padding: 0;
    border: 0;
    border-radius: var(--verify-radius, 8px);
    width: min(var(--verify-modal-width, 480px), 100vw);
    height: min(var(--verify-modal-height, 760px), 100dvh);
    max-width: 100vw;
    max-height: 100dvh;
    overflow: hidden;
  }
  dialog::backdrop {
    background: var(--verify-backdrop, #0009);
  }
  /* The close button has a bar of its own above the frame: laid over it, it covered the card. */
  dialog[open] {
    display: flex;
    flex-direction: column;
  }
  iframe {
    border: 0;
    width: 100%;
    flex: 1;
    min-height: 0;
  }
  [part='close'] {
    align-self: flex-end;
    flex: none;
    margin: 0.25rem;
    width: 2.75rem;
    height: 2.75rem;
    padding: 0;
    border-radius: 50%;
    font-size: 1.5rem;
  }
`;
