import { css } from 'lit';
import { cameraViewportStyles } from '../camera-viewport.styles.js';

export default [
  ...cameraViewportStyles,
  css`
    /* A TD3 passport data page (125 × 88 mm): the top edge is the fold, the bottom edge holds the MRZ. */
    .guide.passport {
      inset-inline: 13%;
      aspect-ratio: 125 / 88;
      border-radius: 2%;
      border-block-start-style: dashed;
    }
  `,
];
