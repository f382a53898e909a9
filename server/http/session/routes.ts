import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  CodeSentResponse,
  CompleteResponse,
  CSRF_HEADER,
  DocumentSubmitRequest,
  DocumentUploadFields,
  DocumentUploadResponse,
  FaceChallenge,
  FaceFrameFields,
  FaceFrameResponse,
  FaceSubmitRequest,
  GeolocationRequest,
  HandoffClaimRequest,
  HandoffResponse,
  KnowledgeRequest,
  MAX_UPLOAD_BYTES,
  MethodKeyParam,
  MethodResult,
  SESSION_COOKIE,
  SESSION_TOKEN_HEADER,
  SessionView,
  StartSessionRequest,
  StartSessionResponse,
  VerifyCodeRequest,
  type MethodKey,
} from '../../../src/api/contract.js';
import type { AppContext } from '../../context.js';
import {
  newFaceChallenge,
  retryMethod,
  sendCode,
  startFromLink,
  startMethod,
  submitDocument,
  submitFace,
  submitGeolocation,
  submitKnowledge,
  uploadDocument,
  uploadFaceFrame,
  verifyCode,
} from '../../session/actions.js';
import { completeFlow } from '../../session/completion.js';
import { sessionErrors } from '../../session/errors.js';
import { claimHandoff, createHandoff } from '../../session/handoff.js';
import { SessionLimits } from '../../session/limits.js';
import { sessionView } from '../../session/methods.js';
import { authenticate, csrfMatches, revokeSession, type Authenticated } from '../../session/sessions.js';
import { sdb } from '../../session/tables.js';
import { onUserDeletion } from '../../services/users.js';
import { readSettings } from '../../store/settings-repo.js';
import { allowedOrigins, isSameHost } from '../hosted/security-headers.js';
import { closeAllStreams, streamSessionEvents } from './events.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The end-user session of a `/session/*` call (after authentication). */
    endUser?: Authenticated;
  }
}

const CODE_KEYS = z.enum(['email', 'phone']);
const FACE_KEYS = z.enum(['selfie', 'liveness']);
const ALLOWED_HEADERS = `Content-Type, ${SESSION_TOKEN_HEADER}, ${CSRF_HEADER}`;
/** Routes that start a session: no session and no CSRF token yet, the Origin check still applies. */
const UNAUTHENTICATED = new Set(['/session/start', '/session/handoff/claim']);

function isHttps(ctx: AppContext, req: FastifyRequest): boolean {
  return req.protocol === 'https' || ctx.config.baseUrl.startsWith('https:');
}

function header(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return typeof value === 'string' ? value : undefined;
}

/** The authenticated session of a request (set by the preHandler). */
function who(req: FastifyRequest): Authenticated {
  if (!req.endUser) throw sessionErrors.auth();
  return req.endUser;
}

/**
 * The end-user session API (`/session/*`, contract in `src/api/contract.ts`): cookie or header
 * authenticated, CSRF-checked, CORS for the account's customer origins only. Registered as its own
 * encapsulated plugin so the cookie and multipart parsers stay off the customer API.
 */
// Session rows go with the user (the foreign keys cascade too; explicit deletes keep every
// database alike). Registered once per process, at import.
onUserDeletion(async (trx, userId) => {
  const t = sdb(trx);
  await t.deleteFrom('user_sessions').where('user_id', '=', userId).execute();
  await t.deleteFrom('verification_codes').where('user_id', '=', userId).execute();
  await t.deleteFrom('method_state').where('user_id', '=', userId).execute();
  await t.deleteFrom('session_uploads').where('user_id', '=', userId).execute();
  await t.deleteFrom('handoff_tokens').where('user_id', '=', userId).execute();
});

/** `limits`: the abuse limits, made with the deployment's limiter factory (shared in scale-out). */
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
    const locale = (req: FastifyRequest) => header(req, 'accept-language') ?? null;
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

    app.post('/session/methods/:key/start', { schema: { ...hide, params: z.object({ key: MethodKeyParam }), response: { 200: MethodResult } } }, async (req) =>
      startMethod(ctx, who(req).user, req.params.key as MethodKey),
    );
    app.post('/session/methods/:key/retry', { schema: { ...hide, params: z.object({ key: MethodKeyParam }), response: { 200: MethodResult } } }, async (req) =>
      retryMethod(ctx, who(req).user, req.params.key as MethodKey),
    );

    app.post('/session/methods/:key/send', { schema: { ...hide, params: z.object({ key: CODE_KEYS }), response: { 200: CodeSentResponse } } }, async (req) =>
      sendCode(ctx, who(req).user, req.params.key, locale(req)),
    );
    app.post(
      '/session/methods/:key/verify',
      { schema: { ...hide, params: z.object({ key: CODE_KEYS }), body: VerifyCodeRequest, response: { 200: MethodResult } } },
      async (req) => verifyCode(ctx, who(req).user, req.params.key, req.body.code),
    );

    app.post('/session/methods/geolocation', { schema: { ...hide, body: GeolocationRequest, response: { 200: MethodResult } } }, async (req) =>
      submitGeolocation(ctx, who(req).user, req.body, req.ip),
    );
    app.post('/session/methods/knowledge', { schema: { ...hide, body: KnowledgeRequest, response: { 200: MethodResult } } }, async (req) =>
      submitKnowledge(ctx, who(req).user, req.body),
    );

    app.post('/session/methods/document_id/uploads', { schema: { ...hide, response: { 201: DocumentUploadResponse } } }, async (req, reply) => {
      await limits.upload(who(req).user.id);
      const { fields, file } = await readMultipart(req, 'image');
      const parsed = z.safeParse(DocumentUploadFields, fields);
      if (!parsed.success) throw sessionErrors.validation(issues(parsed.error.issues));
      const result = await uploadDocument(ctx, who(req).user, parsed.data, file);
      return reply.code(201).send(result);
    });
    app.post('/session/methods/document_id/submit', { schema: { ...hide, body: DocumentSubmitRequest, response: { 200: MethodResult } } }, async (req) =>
      submitDocument(ctx, who(req).user, req.body),
    );

    app.post(
      '/session/methods/:key/challenge',
      { schema: { ...hide, params: z.object({ key: FACE_KEYS }), response: { 201: FaceChallenge } } },
      async (req, reply) => {
        const challenge = await newFaceChallenge(ctx, who(req).user, req.params.key);
        return reply.code(201).send(challenge);
      },
    );
    app.post(
      '/session/methods/:key/frames',
      { schema: { ...hide, params: z.object({ key: FACE_KEYS }), response: { 201: FaceFrameResponse } } },
      async (req, reply) => {
        await limits.upload(who(req).user.id);
        const { fields, file } = await readMultipart(req, 'frame');
        const parsed = z.safeParse(FaceFrameFields, fields);
        if (!parsed.success) throw sessionErrors.validation(issues(parsed.error.issues));
        const result = await uploadFaceFrame(ctx, who(req).user, req.params.key, parsed.data, file);
        return reply.code(201).send(result);
      },
    );
    app.post(
      '/session/methods/:key/submit',
      { schema: { ...hide, params: z.object({ key: FACE_KEYS }), body: FaceSubmitRequest, response: { 200: MethodResult } } },
      async (req) => submitFace(ctx, who(req).user, req.params.key, req.body.challenge_id),
    );

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

function issues(list: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const i of list) (out[i.path.map(String).join('.') || 'body'] ??= []).push(i.message);
  return out;
}

/** Reads a multipart body: text fields, and the one file under `fileField` (size-limited by the plugin). */
async function readMultipart(req: FastifyRequest, fileField: string): Promise<{ fields: Record<string, string>; file: Buffer }> {
  if (!req.isMultipart()) throw sessionErrors.validation({ [fileField]: ['Send multipart/form-data.'] });
  const fields: Record<string, string> = {};
  let file: Buffer | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === fileField && file === undefined) file = bytes;
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error: unknown) {
    const code = (error as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw sessionErrors.uploadTooLarge();
    if (typeof code === 'string' && code.startsWith('FST_')) throw sessionErrors.uploadInvalid('The upload could not be read.');
    throw error;
  }
  if (!file) throw sessionErrors.validation({ [fileField]: ['A file is required.'] });
  return { fields, file };
}
