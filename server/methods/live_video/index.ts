import { liveVideoAdminRoutes } from './admin-routes.js';
import { reopenVerification } from '../defaults.js';
import type { MethodRoutes, ServerMethod } from '../method.js';
import { deleteLiveVideoData } from './repo.js';
import { LIVE_VIDEO_METHOD_ID } from './rules.js';
import { liveVideoSocketRoutes } from './socket-routes.js';

/** No session routes of its own besides the socket: the call's steps go over it. */
const noRoutes: MethodRoutes = () => async () => {};

/**
 * Live Video (spec method 12): a WebRTC call with an agent in the dashboard. The user waits in a
 * queue; an agent picks them (the method moves to `processing`), sees their documents and selfies
 * beside the call, may take stills, and decides: approve (`complete`), reject (`rejected`) or send
 * to review (`complete_in_review`). A user who hangs up first, or an agent who leaves, puts the
 * method back to `assigned`.
 */
export const liveVideoMethod: ServerMethod = {
  key: 'live_video',
  methodIds: [LIVE_VIDEO_METHOD_ID],
  permissions: ['camera', 'microphone'],
  biometric: true,
  routes: noRoutes,
  adminRoutes: liveVideoAdminRoutes,
  publicRoutes: liveVideoSocketRoutes,
  view({ ctx }, base) {
    const ice_servers = ctx.config.iceServers.map((s) => ({
      urls: s.urls,
      ...(s.username !== undefined ? { username: s.username } : {}),
      ...(s.credential !== undefined ? { credential: s.credential } : {}),
    }));
    return Promise.resolve({ ...base, key: 'live_video', needs: { ice_servers } });
  },
  // An agent's rejection stands: the customer or an operator may reset the method.
  canRetryRejected: () => Promise.resolve(false),
  reopen: reopenVerification,
  docs: {
    proves:
      'An agent saw and heard the user in a live video call (WebRTC, media peer to peer) and decided: approved (`complete`), rejected, or sent to review (`complete_in_review`). The agent had the user’s captured documents and selfies beside the call and may have taken stills of it (on the user page).',
    attributes: {
      agent_decision: '`approved`, `rejected` or `sent_to_review`.',
      reason: 'The agent’s reason (required to reject or send to review), else null.',
      agent_id: 'The dashboard admin id of the agent who decided.',
      call_started_at: 'When the agent took the call (ISO 8601).',
      call_seconds: 'Seconds from the start of the call to the decision.',
      stills: 'Stills the agent took of the call.',
      decided_at: 'When the agent decided (ISO 8601).',
    },
  },
  deleteUserData: deleteLiveVideoData,
};
