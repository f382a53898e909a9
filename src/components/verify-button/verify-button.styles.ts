import { css } from 'lit';

export default css`
  :host {
    display: inline-block;
    font-family: var(--verify-font, system-ui, sans-serif);
  }
  :host([hidden]) {
    display: none;
  }
  [part='button'] {
    font: inherit;
    font-size: var(--verify-button-font-size, 1rem);
    font-weight: 600;
    padding: var(--verify-button-padding, 0.75em 1.5em);
    border-radius: var(--verify-radius, 8px);
    border: var(--verify-button-border, none);
    background: var(--verify-button-background, var(--verify-primary, #1f4fd6));
    color: var(--verify-button-color, var(--verify-on-primary, #fff));
    cursor: pointer;
    display: inline-flex;
    align-items: center;
    gap: 0.5em;
  }
  [part='button']:focus-visible {
    outline: 3px solid var(--verify-focus, #ffbf47);
    outline-offset: 2px;
  }
  [part='button'][aria-disabled='true'] {
    opacity: 0.6;
    cursor: not-allowed;
  }
  .spinner {
    width: 1em;
    height: 1em;
    border: 2px solid currentColor;
    border-right-color: transparent;
    border-radius: 50%;
    animation: spin 0.8s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none;
    }
  }
  dialog {
    padding: 0;
    border: none;
    border-radius: var(--verify-radius, 8px);
    width: min(var(--verify-modal-width, 480px), 100vw);
    height: min(var(--verify-modal-height, 760px), 100dvh);
    max-width: 100vw;
    max-height: 100dvh;
    background: var(--verify-background, #fff);
    box-shadow: 0 10px 40px rgb(0 0 0 / 35%);
  }
  dialog::backdrop {
    background: var(--verify-backdrop, rgb(0 0 0 / 55%));
  }
  .frame-wrap {
    position: relative;
    width: 100%;
    height: 100%;
  }
  iframe {
    border: 0;
    width: 100%;
    height: 100%;
    display: block;
  }
  [part='close'] {
    position: absolute;
    inset-block-start: 0.5rem;
    inset-inline-end: 0.5rem;
    width: 2.75rem;
    height: 2.75rem;
    border-radius: 50%;
    border: none;
    background: var(--verify-close-background, rgb(0 0 0 / 8%));
    color: var(--verify-text, #111);
    font-size: 1.5rem;
    line-height: 1;
    cursor: pointer;
  }
  [part='close']:focus-visible {
    outline: 3px solid var(--verify-focus, #ffbf47);
  }
`;
