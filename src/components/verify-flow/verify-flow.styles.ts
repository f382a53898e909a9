import { css } from 'lit';
import { sharedStyles } from '../../internal/shared-styles.js';

export default [
  sharedStyles,
  css`
    .flow {
      background: var(--verify-background, #fff);
      padding: var(--verify-padding, 1.25rem);
      border-radius: var(--verify-radius, 8px);
      max-inline-size: var(--verify-max-width, 40rem);
      margin-inline: auto;
      box-sizing: border-box;
    }
    header {
      display: flex;
      align-items: center;
      gap: 0.5rem;
      margin-block-end: 1rem;
      font-weight: 600;
    }
    .logo {
      max-block-size: 2.5rem;
      max-inline-size: 10rem;
    }
    .progress {
      margin-block-end: 1rem;
      font-size: 0.95rem;
    }
    .bar {
      block-size: 0.4rem;
      background: var(--verify-track, #dde2ec);
      border-radius: 1rem;
      overflow: hidden;
      margin-block-start: 0.35rem;
    }
    .fill {
      block-size: 100%;
      background: var(--verify-primary, #1f4fd6);
      transition: inline-size 0.3s;
    }
    h2:focus {
      outline: none;
    }
    h2:focus-visible {
      outline: 3px solid var(--verify-focus, #ffbf47);
    }
    .nav {
      display: flex;
      justify-content: space-between;
      flex-wrap: wrap;
      gap: 0.5rem;
      margin-block-start: 1.5rem;
    }
    .loading {
      display: flex;
      align-items: center;
      gap: 0.75rem;
      padding: 2rem 0;
    }
    .spinner {
      inline-size: 1.5rem;
      block-size: 1.5rem;
      border: 3px solid var(--verify-primary, #1f4fd6);
      border-inline-end-color: transparent;
      border-radius: 50%;
      animation: spin 0.8s linear infinite;
    }
    @keyframes spin {
      to {
        transform: rotate(360deg);
      }
    }
    .result {
      text-align: center;
      padding-block: 1rem;
    }
    .result .actions {
      justify-content: center;
    }
    .check {
      font-size: 2.5rem;
      color: var(--verify-success, #1b7a3d);
    }
    /* A refusal by the server, shown live above the step on screen. */
    .refusal {
      border-inline-start: 4px solid var(--verify-danger, #b3261e);
      margin-block-end: 1rem;
    }
    .refusal p {
      margin-block-end: 0.75rem;
    }
  `,
];
