import { css } from 'lit';
import { cameraViewportStyles } from '../camera-viewport.styles.js';

export default [
  cameraViewportStyles,
  css`
    /* A TD3 passport data page (125 × 88 mm): the top edge is the fold, the bottom edge holds the MRZ. */
    .guide.passport {
      inset-inline: 13%;
      aspect-ratio: 125 / 88;
      border-radius: 2%;
      border-block-start-style: dashed;
    }
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
    h3:focus {
      outline: none;
    }
  `,
];
