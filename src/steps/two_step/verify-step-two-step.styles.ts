import { css } from 'lit';

export default css`
  .qr {
    inline-size: min(14rem, 60vw);
    block-size: auto;
    background: #fff;
    display: block;
    margin: 0.5rem auto 1rem;
  }
  .secret,
  .codes {
    font-family: var(--verify-mono, ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace);
    font-size: 1.05rem;
    letter-spacing: 0.05em;
    word-break: break-all;
  }
  /* Keys and codes read left to right in every locale (Arabic included), numbers and all. */
  .secret,
  .codes {
    direction: ltr;
    unicode-bidi: isolate;
  }
  .codes {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr));
    column-gap: 1.5rem;
    list-style-position: inside;
    padding: 0;
    margin: 0 0 1rem;
  }
  .key-actions {
    margin-block-end: 1.25rem;
  }
`;
