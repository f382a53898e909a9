import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import * as z from 'zod/mini';
import { LiveVideoUserMessage } from '../../../src/api/contract.js';
import { ApiError, errors } from '../../errors.js';
import { sessionErrors } from '../../errors.js';
import { authenticate, csrfMatches } from '../../session/sessions.js';
import type { UserRow } from '../../store/schema.js';
import type { SessionKit } from '../method.js';
import { onProgress } from '../../session/progress.js';
import { backToAssigned, endIfMethodChanged, endIfUserDeleted } from './call-end.js';
import { hubFor, send } from './hub.js';
import { enqueue, findCall, type LiveVideoCall, removeUserCall, touchCall } from './repo.js';
import { HEARTBEAT_MS, HELLO_TIMEOUT_MS, socketBudget, STALE_MS } from './rules.js';

/** Parses one socket message against `schema`; the error to send when it is not one. */
export function parseMessage<T>(schema: z.ZodMiniType<T>, data: RawData): { ok: true; value: T } | { ok: false; error: ApiError } {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8'));
  } catch {
    return { ok: false, error: sessionErrors.validation({ body: ['Must be JSON.'] }) };
  }
  const parsed = z.safeParse(schema, json);
  if (!parsed.success)
    return { ok: false, error: sessionErrors.validation({ body: parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`) }) };
  return { ok: true, value: parsed.data };
}

/** An error as the socket tells it (the spec's error body's two fields). */
export function errorMessage(error: unknown): { type: 'error'; error_type: string; error_message: string } {
  if (error instanceof ApiError) return { type: 'error', error_type: error.errorType, error_message: error.message };
  return { type: 'error', error_type: 'api_internal_error', error_message: 'Something went wrong.' };
}

/**
 * One user's signalling socket. The first message is `hello` with the session and CSRF tokens
 * (a socket carries no headers, and embedded on a customer's site no cookie); it must come from
 * a user who consented (the call is biometric) and whose method is open, and it enters the queue.
 * Messages are size-limited by the socket (`maxPayload`), budgeted per socket, and checked.
 */
export function handleUserSocket(kit: SessionKit, socket: WebSocket, req: FastifyRequest): void {
  const { ctx } = kit;
  const hub = hubFor(ctx);
  const conn = randomUUID();
  const budget = socketBudget(Date.now());
  let user: UserRow | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let stopProgress: (() => void) | undefined;
  let queue: Promise<void> = Promise.resolve();
  const helloTimer = setTimeout(() => socket.close(4408, 'hello expected'), HELLO_TIMEOUT_MS);

  const fail = (error: unknown, close: boolean) => {
    if (!(error instanceof ApiError)) ctx.log.error({ err: error }, 'live video: user socket failed');
    send(socket, errorMessage(error));
    if (close) socket.close(4400, 'refused');
  };

  const hello = async (token: string, csrf: string) => {
    const auth = await authenticate(ctx, token, req.ip);
    if (!auth) throw sessionErrors.auth();
    if (!csrfMatches(ctx.config.secret, auth.session, csrf)) throw sessionErrors.csrf();
    await kit.requireConsent(auth.user.id);
    await reopenAbandoned(kit, auth.user.id);
    await kit.requireOpen(auth.user, 'live_video');
    user = auth.user;
    const previous = await enqueue(ctx.db, user.id, conn, ctx.clock.now());
    hub.addUser(conn, socket, user.id);
    clearTimeout(helloTimer);
    // Another tab (or a dropped socket) held the place: it is told, and an agent in a call with it too.
    if (previous && previous.user_conn !== conn) {
      hub.toUser(previous.user_conn, { type: 'ended', reason: 'replaced' });
      if (previous.agent_conn) hub.toAgent(previous.agent_conn, { type: 'ended', reason: 'user_left' });
    }
    const userId = user.id;
    // An operator may reset, approve or reject the method, or delete the user, meanwhile: its
    // progress notice (and, as the safety net for a lost one, the heartbeat) ends the call.
    let lastCall: LiveVideoCall | undefined;
    const check = async () => {
      const call = await findCall(ctx.db, userId);
      if (call?.user_conn === conn) lastCall = call;
      if (await endIfUserDeleted(kit, userId, lastCall)) {
        send(socket, { type: 'ended', reason: 'method_changed' });
        socket.close(1000, 'user deleted');
      } else await endIfMethodChanged(kit, userId, conn, call);
    };
    const checkMethod = () => {
      queue = queue.then(check).then(
        () => undefined,
        (err: unknown) => ctx.log.error({ err }, 'live video: method check failed'),
      );
    };
    stopProgress = onProgress(userId, checkMethod);
    heartbeat = setInterval(() => {
      touchCall(ctx.db, userId, conn, ctx.clock.now()).catch((err: unknown) => ctx.log.error({ err }, 'live video: heartbeat failed'));
      checkMethod();
    }, HEARTBEAT_MS);
    heartbeat.unref();
    hub.queueChanged();
  };

  const onMessage = async (data: RawData) => {
    if (!budget.take(Date.now())) {
      fail(errors.tooManyMessages(), true);
      return;
    }
    const parsed = parseMessage(LiveVideoUserMessage, data);
    if (!parsed.ok) {
      fail(parsed.error, user === undefined);
      return;
    }
    const message = parsed.value;
    if (message.type === 'hello') {
      if (user) throw sessionErrors.state('Already in the queue.');
      try {
        await hello(message.session_token, message.csrf_token);
      } catch (error: unknown) {
        fail(error, true);
      }
      return;
    }
    if (!user) {
      fail(sessionErrors.auth(), true);
      return;
    }
    if (message.type === 'leave') {
      await leave(kit, user.id, conn);
      socket.close(1000, 'left');
      return;
    }
    const call = await findCall(ctx.db, user.id);
    if (!call || call.user_conn !== conn || call.state !== 'in_call' || !call.agent_conn) throw sessionErrors.state('No agent is in the call yet.');
    hub.toAgent(call.agent_conn, { type: 'signal', signal: message.signal });
  };

  // Messages are handled one after another: a candidate must not overtake the offer before it.
  socket.on('message', (data) => {
    queue = queue.then(() => onMessage(data)).catch((error: unknown) => fail(error, false));
  });
  socket.on('close', () => {
    clearTimeout(helloTimer);
    if (heartbeat) clearInterval(heartbeat);
    stopProgress?.();
    hub.removeUser(conn);
    const userId = user?.id;
    if (userId !== undefined) {
      queue = queue.then(() => leave(kit, userId, conn)).catch((err: unknown) => ctx.log.error({ err }, 'live video: leaving failed'));
    }
  });
}

/**
 * The user left the queue or hung up (or their socket dropped): their row goes, an agent in the
 * call is told, and a call that had started puts the method back to `assigned`, to be tried again.
 */
async function leave(kit: SessionKit, userId: number, conn: string): Promise<void> {
  const { ctx } = kit;
  const hub = hubFor(ctx);
  const removed = await removeUserCall(ctx.db, userId, conn);
  if (!removed) return;
  if (removed.state === 'in_call' && removed.agent_conn) {
    await backToAssigned(kit, userId);
    hub.toAgent(removed.agent_conn, { type: 'ended', reason: 'user_left' });
  }
  hub.queueChanged();
}

/** A call left `processing` by a process that went away (no live row): open again before the user rejoins. */
async function reopenAbandoned(kit: SessionKit, userId: number): Promise<void> {
  const call = await findCall(kit.ctx.db, userId);
  const alive = call !== undefined && Date.parse(call.seen_at) > kit.ctx.clock.now().getTime() - STALE_MS;
  if (!alive) await backToAssigned(kit, userId);
}
