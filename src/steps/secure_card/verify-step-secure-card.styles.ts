import { css } from 'lit';
import { cameraViewportStyles } from '../camera-viewport.styles.js';

export default [
  ...cameraViewportStyles,
  css`
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
  `,
];
