import websocket from '@fastify/websocket';
import { LIVE_VIDEO_AGENT_SOCKET, LIVE_VIDEO_MAX_MESSAGE_BYTES, LIVE_VIDEO_USER_SOCKET } from '../../../src/api/contract.js';
import { allowedOrigins, isSameHost } from '../../http/hosted/security-headers.js';
import { sessionErrors } from '../../errors.js';
import type { MethodRoutes } from '../method.js';
import { agentGuard, handleAgentSocket } from './agent-socket.js';
import { endOverdueCalls } from './call-end.js';
import { closeHub, hubFor } from './hub.js';
import { DEADLINE_SWEEP_MS } from './rules.js';
import { handleUserSocket } from './user-socket.js';

/**
 * The two signalling sockets, outside the session and admin scopes (a socket cannot send the
 * session header, so the user authenticates in its first message; the agent's door checks the
 * dashboard's cookie and Origin itself). Registered once at the app's root, with the WebSocket
 * server: messages above {@link LIVE_VIDEO_MAX_MESSAGE_BYTES} close the socket.
 */
export const liveVideoSocketRoutes: MethodRoutes = (kit) => async (app) => {
  const { ctx } = kit;
  await app.register(websocket, { options: { maxPayload: LIVE_VIDEO_MAX_MESSAGE_BYTES } });
  hubFor(ctx);
  // Every process ends the calls past their length limit, wherever they were started.
  const sweep = setInterval(() => {
    endOverdueCalls(kit).catch((err: unknown) => ctx.log.error({ err }, 'live video: ending overdue calls failed'));
  }, DEADLINE_SWEEP_MS);
  sweep.unref();
  app.addHook('preClose', async () => {
    clearInterval(sweep);
    closeHub(ctx);
  });

  app.get(
    LIVE_VIDEO_USER_SOCKET,
    {
      websocket: true,
      schema: { hide: true },
      // The widget's own origins only: our hosted page, or a customer origin of the account.
      onRequest: async (req) => {
        const origin = req.headers.origin;
        if (origin === undefined) return;
        if (!isSameHost(origin, req.headers.host) && !(await allowedOrigins(ctx)).includes(origin)) throw sessionErrors.csrf();
      },
    },
    (socket, req) => handleUserSocket(kit, socket, req),
  );

  app.get(LIVE_VIDEO_AGENT_SOCKET, { websocket: true, schema: { hide: true }, onRequest: async (req) => agentGuard(ctx, req) }, (socket, req) =>
    handleAgentSocket(kit, socket, req),
  );
};
