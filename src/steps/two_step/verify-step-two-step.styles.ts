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
  /* Keys and codes read left to right in every locale (Arabic included). */
  .secret,
  .codes li {
    direction: ltr;
    unicode-bidi: isolate;
  }
  .codes {
    columns: 2;
    padding-inline-start: 1.5rem;
    margin: 0 0 1rem;
  }
`;
