import { css } from 'lit';
import { cameraViewportStyles } from '../camera-viewport.styles.js';

export default [
  cameraViewportStyles,
  css`
    .hint {
      min-block-size: 1.5em;
      font-weight: 600;
      margin-block-start: 0.75rem;
    }
    img.review {
      max-inline-size: 100%;
      border-radius: var(--verify-radius, 8px);
      display: block;
    }
    dl.reading {
      display: grid;
      grid-template-columns: max-content 1fr;
      gap: 0.25rem 1rem;
    }
    dl.reading dt {
      font-weight: 600;
    }
    dl.reading dd {
      margin: 0;
    }
    h3:focus {
      outline: none;
    }
  `,
];
