import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { sessionView } from '../../session/view.js';
import { onHandoff, onProgress } from '../../session/progress.js';
import type { Authenticated, SessionRecord } from '../../session/sessions.js';
import { findUserById } from '../../store/repos/users-repo.js';

/** Keep-alive comment interval (contract: every 20 s). */
const PING_MS = 20_000;
/** Re-read interval, for changes made by other processes (analysis workers in scale-out). */
const POLL_MS = 3_000;

/** Open streams, closed when the server shuts down (they would otherwise hold it open). */
const openStreams = new Set<() => void>();

/**
 * Streams one session may hold open at once: its page and a few more tabs. Each stream re-reads
 * the session every few seconds, so one token opening thousands would hold the server's
 * connections and load its database; past this, the session's oldest stream is closed.
 */
export const MAX_STREAMS_PER_SESSION = 4;
const streamsBySession = new Map<SessionRecord['id'], (() => void)[]>();

export function closeAllStreams(): void {
  for (const close of [...openStreams]) close();
}

/**
 * `GET /session/events`: Server-Sent Events. A `session` event at once and on every change, a
 * `handoff` event when the phone claims or finishes, `: ping` every 20 s; the stream ends once the
 * state is `completed` with nothing left `processing`, or when the user is gone or banned.
 */
export function streamSessionEvents(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, auth: Authenticated): void {
  // CORS and no-store were set by the onRequest hook; hijacked replies skip later hooks, so copy them.
  const headers: Record<string, string> = {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  };
  for (const name of ['access-control-allow-origin', 'access-control-allow-credentials', 'vary', 'access-control-expose-headers']) {
    const value = reply.getHeader(name);
    if (typeof value === 'string') headers[name] = value;
  }
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, headers);
  res.write(': stream open\n\n');

  let closed = false;
  let last = '';
  let busy = false;
  let again = false;
  const cleanups: (() => void)[] = [];
  const close = () => {
    if (closed) return;
    closed = true;
    openStreams.delete(close);
    const siblings = streamsBySession.get(auth.session.id)?.filter((c) => c !== close) ?? [];
    if (siblings.length > 0) streamsBySession.set(auth.session.id, siblings);
    else streamsBySession.delete(auth.session.id);
    for (const c of cleanups) c();
    res.end();
  };

  const push = async (): Promise<void> => {
    if (closed) return;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      const user = await findUserById(ctx.db, auth.user.id);
      if (!user || user.status === 'Banned') return close();
      const view = await sessionView(ctx, user, auth.session);
      const json = JSON.stringify(view);
      if (json !== last && !closed) {
        last = json;
        res.write(`event: session\ndata: ${json}\n\n`);
      }
      // A flow completed while something sent is still checked keeps its stream: a later refusal
      // reopens the flow, and the page still open offers the retry (issue 20).
      if (view.state === 'completed' && !view.methods.some((m) => m.status === 'processing')) close();
    } catch (error: unknown) {
      req.log.error({ err: error }, 'session event stream failed');
      close();
    } finally {
      busy = false;
      if (again) {
        again = false;
        void push();
      }
    }
  };

  cleanups.push(onProgress(auth.user.id, () => void push()));
  cleanups.push(
    onHandoff(auth.session.id, (progress) => {
      if (!closed) res.write(`event: handoff\ndata: ${JSON.stringify(progress)}\n\n`);
    }),
  );
  const ping = setInterval(() => {
    if (!closed) res.write(': ping\n\n');
  }, PING_MS);
  const poll = setInterval(() => void push(), POLL_MS);
  cleanups.push(
    () => clearInterval(ping),
    () => clearInterval(poll),
  );
  openStreams.add(close);
  const ofSession = [...(streamsBySession.get(auth.session.id) ?? []), close];
  streamsBySession.set(auth.session.id, ofSession);
  if (ofSession.length > MAX_STREAMS_PER_SESSION) ofSession[0]!();
  req.raw.on('close', close);
  res.on('error', close);
  void push();
}
