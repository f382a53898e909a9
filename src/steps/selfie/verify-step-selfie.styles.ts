import { css } from 'lit';

export default css`
  .viewport {
    position: relative;
    inline-size: 100%;
    aspect-ratio: 3 / 4;
    max-block-size: 60vh;
    background: #000;
    border-radius: var(--verify-radius, 8px);
    overflow: hidden;
    margin-inline: auto;
  }
  .viewport[hidden] {
    display: none;
  }
  video {
    inline-size: 100%;
    block-size: 100%;
    object-fit: cover;
    display: block;
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
`;
