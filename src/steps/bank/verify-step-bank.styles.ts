import { css } from 'lit';

export default css`
  .amounts {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr));
    column-gap: 1rem;
  }
  /* Account numbers and amounts read left to right in every locale (Arabic included). */
  .ltr {
    direction: ltr;
    unicode-bidi: isolate;
  }
  .kinds {
    display: flex;
    flex-wrap: wrap;
    column-gap: 1.5rem;
  }
`;
