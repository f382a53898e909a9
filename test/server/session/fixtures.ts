import sharp from 'sharp';
import { ANALYSIS_QUEUE, type AnalysisJob } from '../../../server/domain/analysis-jobs.js';
import { insertTemplate } from '../../../server/store/repos/templates-repo.js';
import { writeSetting } from '../../../server/store/repos/settings-repo.js';
import { knowledgeQuestion } from '../../../server/methods/knowledge/rules.js';
import { listOutbox, type OutboxMessage } from '../../../server/notify/outbox.js';
import { ApiError, SessionClient, type SessionStreamEvent } from '../../../src/api/session-client.js';
import type { TestServer } from '../../helpers/server.js';

/** Creates a template from method ids (spec ids; 22 is Selfie) and returns its `tmpl_…` name. */
export async function createTemplate(server: TestServer, name: string, methodIds: number[]): Promise<string> {
  await insertTemplate(server.verity.ctx.db, { name, label: name, methodIds, workflowRawIds: [], createdAt: server.clock.now().toISOString() });
  return name;
}

/** Three knowledge questions (text, date, choice); 2 asked, 2 needed, 3 attempts. */
export async function configureKnowledge(server: TestServer, options: { ask?: number; pass?: number; attempts?: number } = {}): Promise<void> {
  const secret = server.config.secret;
  await writeSetting(server.verity.ctx.db, 'knowledge', {
    questions: [
      knowledgeQuestion(secret, { id: 'city', prompt: 'In which city did you open your account?', kind: 'text', answers: ['Genève', 'Geneva'] }),
      knowledgeQuestion(secret, { id: 'opened', prompt: 'On which date did you open it?', kind: 'date', answers: ['2019-04-01'] }),
      knowledgeQuestion(secret, {
        id: 'plan',
        prompt: 'Which plan do you have?',
        kind: 'choice',
        choices: [
          { id: 'basic', label: 'Basic' },
          { id: 'plus', label: 'Plus' },
        ],
        answers: ['plus'],
      }),
    ],
    ask: options.ask ?? 2,
    pass_threshold: options.pass ?? 2,
    max_attempts: options.attempts ?? 3,
  });
}

/** The right answer to each configured knowledge question, in a form a user might type. */
/** Correct answers typed as a user might (the city with another case, no accent, spaces): normalisation must match. */
export const KNOWLEDGE_ANSWERS: Record<string, string> = { city: '  GENEVE ', opened: '2019-04-01', plan: 'plus' };

/** Waits for the notify worker, then returns the outbox messages to an address / number, newest first. */
export async function outboxFor(server: TestServer, to: string): Promise<OutboxMessage[]> {
  await server.verity.ctx.queue.whenIdle();
  return listOutbox(server.config.dataDir, { to });
}

/** The 6-digit code in the newest message to `to`. */
export async function latestCode(server: TestServer, to: string, timeoutMs = 15_000): Promise<string> {
  // A browser test clicks "Send code" and asks at once: the request may not have reached the
  // server yet, so wait for the message rather than read an empty outbox.
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [message] = await outboxFor(server, to);
    const code = /\b(\d{6})\b/.exec(message?.text ?? '')?.[1];
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`no code in the outbox for ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The widget's own session client, pointed at the test server. */
export function client(server: TestServer): SessionClient {
  return new SessionClient({ baseUrl: server.url });
}

/** Rewrites a link made for the public base URL to the test server's address (same path and query). */
export function local(server: TestServer, link: string): string {
  const url = new URL(link);
  return `${server.url}${url.pathname}${url.search}`;
}

/** Creates a user through the customer API and returns id and magic link. */
export async function createUser(server: TestServer, body: Record<string, unknown>): Promise<{ id: number; link: string }> {
  const res = await server.api('/api/users', { body });
  if (res.status !== 200) throw new Error(`create user: ${res.status} ${res.text}`);
  return { id: Number(res.body.id), link: String(res.body.magic_link) };
}

/** A new user whose template holds only `methodIds` (more user fields in `extra`), the widget's session started on their link. */
export async function startedSession(
  server: TestServer,
  methodIds: number[],
  extra: Record<string, unknown> = {},
): Promise<{ id: number; session: SessionClient }> {
  const suffix = Math.random().toString(36).slice(2, 8);
  const template = await createTemplate(server, `tmpl_${suffix}`, methodIds);
  const { id, link } = await createUser(server, { email: `u${suffix}@example.com`, template_id: template, ...extra });
  const session = client(server);
  await session.start(local(server, link));
  return { id, session };
}

/** Waits until `events` holds an event matching `test` (the stream runs in the background). */
export async function untilEvent(events: SessionStreamEvent[], test: (e: SessionStreamEvent) => boolean, ms = 8000): Promise<SessionStreamEvent> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = events.find(test);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no such event; got ${JSON.stringify(events.map((e) => (e.type === 'session' ? e.data.state : e.type)))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Consents to the current consent text (biometric steps refuse without it, issue 24); returns the session view. */
export async function giveConsent(session: SessionClient) {
  const view = await session.session();
  return session.consent({ decision: 'given', text_version: view.consent.text_version });
}

/** The session API error a call failed with (the test fails if the call succeeds or throws otherwise). */
export async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (error: unknown) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** A new user with a template of `methodIds`, in a started session that consented to biometric steps. */
export async function sessionFor(
  server: TestServer,
  methodIds: number[],
  extra: Record<string, unknown> = {},
): Promise<{ session: SessionClient; id: number }> {
  const template = await createTemplate(server, `tmpl_m${methodIds.join('_')}_${Math.random().toString(36).slice(2, 6)}`, methodIds);
  const { id, link } = await createUser(server, { email: `m${Math.random().toString(36).slice(2, 8)}@example.com`, template_id: template, ...extra });
  const session = client(server);
  await session.start(local(server, link));
  await giveConsent(session);
  return { session, id };
}

/** The analysis jobs queued so far (start the server without workers, or they are consumed). */
export async function analysisJobs(server: TestServer): Promise<AnalysisJob[]> {
  const rows = await server.verity.ctx.db.selectFrom('jobs').select('payload').where('queue', '=', ANALYSIS_QUEUE).execute();
  return rows.map((r) => JSON.parse(r.payload) as AnalysisJob);
}

/** The user's event types, oldest first. */
export async function eventTypes(server: TestServer, id: number): Promise<string[]> {
  const rows = await server.verity.ctx.db.selectFrom('events').select('type').where('user_id', '=', id).orderBy('occurred_at').orderBy('id').execute();
  return rows.map((r) => r.type);
}

/** A small real PNG, and a small real JPEG: uploads checked by their content. */
export const pngImage = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#778899' } })
    .png()
    .toBuffer();
export const jpegImage = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: '#998877' } })
    .jpeg()
    .toBuffer();
