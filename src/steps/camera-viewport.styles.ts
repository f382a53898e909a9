import { css } from 'lit';

/** The camera viewport and its card-shaped guide, shared by the document and Secure Card steps. */
export const cameraViewportStyles = css`
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
`;
