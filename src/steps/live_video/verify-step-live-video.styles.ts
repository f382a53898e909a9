import { css } from 'lit';

/** The call: the agent large, the user's own camera small beside it (below it on a phone). */
export const liveVideoStyles = css`
  .videos {
    display: flex;
    flex-wrap: wrap;
    gap: 0.75rem;
    align-items: flex-start;
  }
  video {
    background: #111;
    border-radius: var(--verify-radius, 8px);
    max-inline-size: 100%;
  }
  video.remote {
    flex: 1 1 18rem;
    aspect-ratio: 4 / 3;
    min-inline-size: 0;
  }
  video.local {
    flex: 0 1 9rem;
    inline-size: 9rem;
    aspect-ratio: 4 / 3;
    transform: scaleX(-1);
  }
  video[hidden] {
    display: none;
  }
  .status:empty {
    display: none;
  }
`;
