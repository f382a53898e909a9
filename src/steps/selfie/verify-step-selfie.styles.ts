import { css } from 'lit';
import { viewportStyles } from '../camera-viewport.styles.js';

export default [
  viewportStyles,
  css`
    /* A face is taller than wide: a portrait preview, centred. */
    .viewport {
      aspect-ratio: 3 / 4;
      max-block-size: 60vh;
      margin-inline: auto;
    }
    video {
      /* Shown like a mirror; detection runs on the camera's own (unmirrored) frames. */
      transform: scaleX(-1);
    }
    .oval {
      position: absolute;
      inset-inline: 20%;
      inset-block: 15%;
      border: 3px solid var(--verify-guide, #fff);
      border-radius: 50%;
      box-shadow: 0 0 0 100vmax rgb(0 0 0 / 45%);
    }
    .instruction {
      font-size: 1.15rem;
      font-weight: 600;
      margin-block-start: 0.75rem;
    }
    .count {
      display: block;
      font-size: 0.9rem;
      font-weight: 400;
      color: var(--verify-muted, #4a5161);
    }
    .hint {
      min-block-size: 1.5em;
    }
    /*
   * The flash challenge: the whole screen around the face guide shows the colour, so its light
   * reaches the face. Colours change twice a second (at most 3 flashes a second is the limit for
   * photosensitivity); with reduced motion they fade into each other instead of switching.
   */
    .flash {
      position: fixed;
      inset: 0;
      z-index: 0;
      background-color: var(--verify-flash, transparent);
    }
    .viewport,
    .instruction,
    .hint {
      position: relative;
      z-index: 1;
    }
    .viewport.flashing {
      background: var(--verify-flash, #000);
    }
    .viewport.flashing .oval {
      box-shadow: 0 0 0 100vmax var(--verify-flash, transparent);
    }
    .viewport.flashing ~ .instruction,
    .viewport.flashing ~ .hint {
      background: var(--verify-surface, #fff);
      color: var(--verify-text, #1b1f29);
      border-radius: var(--verify-radius, 8px);
      padding: 0.25rem 0.5rem;
    }
    /* Shared styles turn every transition off for reduced motion; this fade is the gentler flash it asks for. */
    @media (prefers-reduced-motion: reduce) {
      .flash,
      .viewport.flashing,
      .viewport.flashing .oval {
        transition:
          background-color 250ms ease-in-out,
          box-shadow 250ms ease-in-out !important;
      }
    }
  `,
];
