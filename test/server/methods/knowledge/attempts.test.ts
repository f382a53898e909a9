/** Attempts are a limit, also for answer sheets sent at the same moment (both stores). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/api/session-client.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { atOnce } from '../../../helpers/stored-uploads.js';
import { client, configureKnowledge, createTemplate, createUser, eventTypes, failure, KNOWLEDGE_ANSWERS, local, sessionFor } from '../../session/fixtures.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ workers: false });
});
afterEach(async () => {
  await server.close();
});

describe('knowledge attempts', () => {
  it('six wrong answer sheets sent at once are graded three times, then refused; the step is rejected once', async () => {
    await configureKnowledge(server, { attempts: 3 });
    const template = await createTemplate(server, 'tmpl_knowledge_burst', [21]);
    const { link } = await createUser(server, { email: 'burst@example.com', template_id: template });
    const session = client(server);
    await session.start(local(server, link));
    const k = (await session.session()).methods[0]!;
    if (k.key !== 'knowledge') throw new Error('no knowledge step');
    const wrong = { answers: k.needs.questions.map((q) => ({ question_id: q.id, answer: q.kind === 'choice' ? 'basic' : '1999-01-01' })) };
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () =>
        session.submitKnowledge(wrong).then(
          () => 'passed',
          (e: unknown) => (e instanceof ApiError ? e.error_type : 'thrown'),
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'session_knowledge_failed')).toHaveLength(2);
    // The third sheet exhausts the attempts; the rest are refused, by the attempt count or (when they
    // arrive after the step was rejected) because the step is closed.
    expect(outcomes.filter((o) => o !== 'session_knowledge_failed').every((o) => ['session_attempts_exceeded', 'session_method_state_error'].includes(o))).toBe(
      true,
    );
    expect((await session.session()).methods[0]!.status).toBe('rejected');
  });
});

describe('knowledge', () => {
  it('fails below the threshold with attempts left, then rejects when attempts run out', async () => {
    await configureKnowledge(server, { attempts: 2 });
    const { session, id } = await sessionFor(server, [21]);
    const view = await session.session();
    const k = view.methods[0]!;
    if (k.key !== 'knowledge') throw new Error('no knowledge step');
    expect(JSON.stringify(view)).not.toContain('answer_hashes');
    const wrong = { answers: k.needs.questions.map((q) => ({ question_id: q.id, answer: q.kind === 'choice' ? 'basic' : '1999-01-01' })) };
    const first = await failure(session.submitKnowledge(wrong));
    expect(first.error_type).toBe('session_knowledge_failed');
    expect(first.details.attempts_left).toBe(1);
    const second = await failure(session.submitKnowledge(wrong));
    expect(second.status).toBe(429);
    expect(second.error_type).toBe('session_attempts_exceeded');
    const after = (await session.session()).methods[0]!;
    expect(after.status).toBe('rejected');
    expect(after.can_retry).toBe(false);
    expect(await eventTypes(server, id)).toContain('verification.rejected');
    // Right answers no longer help.
    const late = await failure(session.submitKnowledge({ answers: k.needs.questions.map((q) => ({ question_id: q.id, answer: KNOWLEDGE_ANSWERS[q.id]! })) }));
    expect(late.status).toBe(409);
  });
});

describe('knowledge: the same passing sheet twice at once', () => {
  it('records one result and one completion; the other answers as it would after it', async () => {
    await configureKnowledge(server, { attempts: 3 });
    const { session, id } = await sessionFor(server, [21]);
    const k = (await session.session()).methods[0]!;
    if (k.key !== 'knowledge') throw new Error('no knowledge step');
    const right = { answers: k.needs.questions.map((q) => ({ question_id: q.id, answer: KNOWLEDGE_ANSWERS[q.id]! })) };
    const send = () => session.submitKnowledge(right);
    expect((await atOnce([send, send])).sort()).toEqual(['200', '409 session_method_state_error']);
    expect((await eventTypes(server, id)).filter((t) => t === 'verification.completed')).toHaveLength(1);
    const row = await server.verity.ctx.db.selectFrom('user_verifications').select('attributes').where('user_id', '=', id).executeTakeFirstOrThrow();
    // The loser neither counted an attempt nor overwrote the winner's.
    expect(JSON.parse(row.attributes)).toMatchObject({ attempts: 1 });
  });
});
