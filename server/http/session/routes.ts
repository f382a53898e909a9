import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  CompleteResponse,
  ConsentRequest,
  CSRF_HEADER,
  HandoffClaimRequest,
  HandoffResponse,
  MAX_UPLOAD_BYTES,
  MethodKeyParam,
  MethodResult,
  SESSION_COOKIE,
  SESSION_TOKEN_HEADER,
  SessionView,
  StartSessionRequest,
  StartSessionResponse,
  type MethodKey,
} from '../../../src/api/contract.js';
import type { AppContext } from '../../context.js';
import { isBiometric, methodRoutes } from '../../methods/registry.js';
import { retryMethod, sessionKit, startFromLink, startMethod } from '../../session/actions.js';
import { completeFlow } from '../../session/completion.js';
import { recordConsent, requireConsent } from '../../session/consent.js';
import { sessionErrors } from '../../errors.js';
import { claimHandoff, createHandoff } from '../../session/handoff.js';
import { SessionLimits } from '../../session/limits.js';
import { authenticate, csrfMatches } from '../../session/sessions.js';
import { revokeSession } from '../../session/sessions-repo.js';
import { sessionView } from '../../session/view.js';
import { readSettings } from '../../store/repos/settings-repo.js';
import { allowedOrigins, isSameHost } from '../hosted/security-headers.js';
import { header, who } from './request.js';
import { closeAllStreams, streamSessionEvents } from './events.js';
import { notifyProgress } from '../../session/progress.js';

const ALLOWED_HEADERS = `Content-Type, ${SESSION_TOKEN_HEADER}, ${CSRF_HEADER}`;
/** Routes that start a session: no session and no CSRF token yet, the Origin check still applies. */
const UNAUTHENTICATED = new Set(['/session/start', '/session/handoff/claim']);

function isHttps(ctx: AppContext, req: FastifyRequest): boolean {
  return req.protocol === 'https' || ctx.config.baseUrl.startsWith('https:');
}

/**
 * The end-user session API (`/session/*`, contract in `src/api/contract.ts`): cookie or header
 * authenticated, CSRF-checked, CORS for the account's customer origins only. Registered as its own
 * encapsulated plugin so the cookie and multipart parsers stay off the customer API. Each
 * method's own routes are plugins of this scope (`server/methods/registry.ts`), so its hooks
 * (Origin, authentication, CSRF) guard them too. `limits`: the abuse limits, made with the
 * deployment's limiter factory (shared in scale-out).
 */
export function sessionRoutes(ctx: AppContext, limits: SessionLimits = new SessionLimits()): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(cookie);
    await app.register(multipart, {
      limits: { fileSize: MAX_UPLOAD_BYTES - 1, files: 1, fields: 8, fieldSize: 16 * 1024, parts: 10 },
      throwFileSizeLimit: true,
    });

    app.addHook('preClose', async () => closeAllStreams());

    // Origin check and CORS, before anything else. Hooks of this scope run for its routes only,
    // whatever spelling of the path reached them, so there is no URL to test here.
    app.addHook('onRequest', async (req, reply) => {
      void reply.header('cache-control', 'no-store');
      const origin = header(req, 'origin');
      if (origin === undefined) return;
      const customer = (await allowedOrigins(ctx)).includes(origin);
      const same = isSameHost(origin, req.headers.host);
      if (customer) {
        // Credentials are allowed because the widget's client fetches with `credentials: 'include'`;
        // this grants nothing: the SameSite=Lax cookie is not sent cross-site, so the session token
        // header (and the CSRF token) is what authenticates these calls.
        void reply
          .header('access-control-allow-origin', origin)
          .header('access-control-allow-credentials', 'true')
          .header('vary', 'Origin')
          .header('access-control-expose-headers', 'Retry-After');
      }
      if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS' && !customer && !same) throw sessionErrors.csrf();
    });

    app.options('/session/*', { schema: { hide: true } }, async (_req, reply) => {
      return reply
        .code(204)
        .header('access-control-allow-methods', 'GET, POST, OPTIONS')
        .header('access-control-allow-headers', ALLOWED_HEADERS)
        .header('access-control-max-age', '600')
        .send();
    });

    // Authentication and CSRF for every other call, before the body is parsed and validated: an
    // unauthenticated caller gets 401, never a 422 naming the route's fields.
    app.addHook('onRequest', async (req) => {
      if (req.method === 'OPTIONS') return;
      // The route that matched, not the URL: `/session/%73tart` is `/session/start` to the router.
      if (UNAUTHENTICATED.has(req.routeOptions.url ?? '')) return;
      const token = header(req, SESSION_TOKEN_HEADER) ?? req.cookies[SESSION_COOKIE];
      const auth = token ? await authenticate(ctx, token, req.ip) : null;
      if (!auth) throw sessionErrors.auth();
      if (req.method !== 'GET' && req.method !== 'HEAD' && !csrfMatches(ctx.config.secret, auth.session, header(req, CSRF_HEADER))) {
        throw sessionErrors.csrf();
      }
      req.endUser = auth;
    });

    const setCookie = (req: FastifyRequest, reply: FastifyReply, token: string) => {
      void reply.setCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure: isHttps(ctx, req), path: '/session' });
    };
    const hide = { hide: true };

    app.post('/session/start', { schema: { ...hide, body: StartSessionRequest, response: { 200: StartSessionResponse } } }, async (req, reply) => {
      const started = await limits.start(req.ip, () => startFromLink(ctx, req.body.link, req.ip));
      setCookie(req, reply, started.token);
      return { session_token: started.token, session: await sessionView(ctx, started.user, started.session) };
    });

    app.post('/session/handoff/claim', { schema: { ...hide, body: HandoffClaimRequest, response: { 200: StartSessionResponse } } }, async (req, reply) => {
      const claimed = await limits.start(req.ip, () => claimHandoff(ctx, req.body.token));
      setCookie(req, reply, claimed.token);
      return { session_token: claimed.token, session: await sessionView(ctx, claimed.user, claimed.session) };
    });

    app.get('/session', { schema: { ...hide, response: { 200: SessionView } } }, async (req) => {
      const { user, session } = who(req);
      return sessionView(ctx, user, session);
    });

    app.post('/session/logout', { schema: hide }, async (req, reply) => {
      await revokeSession(ctx.db, who(req).session.id, ctx.clock.now());
      void reply.clearCookie(SESSION_COOKIE, { path: '/session' });
      return reply.code(204).send();
    });

    app.get('/session/events', { schema: hide }, async (req, reply) => {
      streamSessionEvents(ctx, req, reply, who(req));
    });

    app.post('/session/consent', { schema: { ...hide, body: ConsentRequest, response: { 200: SessionView } } }, async (req) => {
      const { user, session } = who(req);
      await recordConsent(ctx, await readSettings(ctx.db), user.id, req.body, req.ip);
      notifyProgress(user.id);
      return sessionView(ctx, user, session);
    });

    app.post(
      '/session/methods/:key/start',
      { schema: { ...hide, params: z.object({ key: MethodKeyParam }), response: { 200: MethodResult } } },
      async (req) => {
        const key = req.params.key as MethodKey;
        // A biometric step does not start without consent (issue 24).
        if (isBiometric(key)) await requireConsent(ctx.db, await readSettings(ctx.db), who(req).user.id);
        return startMethod(ctx, who(req).user, key);
      },
    );
    app.post('/session/methods/:key/retry', { schema: { ...hide, params: z.object({ key: MethodKeyParam }), response: { 200: MethodResult } } }, async (req) =>
      retryMethod(ctx, who(req).user, req.params.key as MethodKey),
    );

    const kit = sessionKit(ctx, limits);
    for (const { routes, biometric } of methodRoutes()) {
      if (!biometric) {
        await app.register(routes(kit));
        continue;
      }
      // Biometric capture routes refuse, before their body is read, a user without consent to the
      // current text: the screen in the widget is not the only guard (issue 24).
      await app.register(async (scope) => {
        scope.addHook('preValidation', async (req) => requireConsent(ctx.db, await readSettings(ctx.db), who(req).user.id));
        await scope.register(routes(kit));
      });
    }

    app.post('/session/handoff', { schema: { ...hide, response: { 201: HandoffResponse } } }, async (req, reply) => {
      const { user, session } = who(req);
      return reply.code(201).send(await createHandoff(ctx, user, session));
    });

    app.post('/session/complete', { schema: { ...hide, response: { 200: CompleteResponse } } }, async (req) => {
      const { user, session } = who(req);
      return completeFlow(ctx, user, session);
    });

    // Settings are read per request (they change in the dashboard); warm them once at start.
    await readSettings(ctx.db);
  };
}
