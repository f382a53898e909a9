import { css } from 'lit';

export default css`
  .qr {
    inline-size: min(16rem, 70vw);
    block-size: auto;
    background: #fff;
    display: block;
    margin: 1rem auto;
  }
  .link {
    font-size: 1.1rem;
    font-weight: 600;
    word-break: break-all;
    text-align: center;
  }
`;
