import { css } from 'lit';

export default css`
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
`;
