import { css } from 'lit';

/** A camera preview filling its box, hidden with its `hidden` attribute: every camera step's. */
export const viewportStyles = css`
  .viewport {
    position: relative;
    inline-size: 100%;
    aspect-ratio: 4 / 3;
    background: #000;
    border-radius: var(--verify-radius, 8px);
    overflow: hidden;
  }
  .viewport[hidden] {
    display: none;
  }
  video {
    inline-size: 100%;
    block-size: 100%;
    object-fit: cover;
    display: block;
  }
`;

/**
 * The card-shaped guide over the preview, the capture advice, the picture to review and its
 * focusable title: the document and Secure Card steps' screens (see `capture-step-element.ts`).
 */
export const cameraViewportStyles = [
  viewportStyles,
  css`
    .guide {
      position: absolute;
      inset-inline: 10%;
      inset-block-start: 50%;
      transform: translateY(-50%);
      aspect-ratio: 1.586;
      border: 3px solid var(--verify-guide, #fff);
      border-radius: 4%;
      box-shadow: 0 0 0 100vmax rgb(0 0 0 / 45%);
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
