/** The dashboard's knowledge questions (`PUT /admin/api/knowledge`, methods/knowledge/admin-routes.ts), on both stores. */
import { describe, expect, it } from 'vitest';
import { items, type TestServer } from '../../../helpers/server.js';
import { type AdminClient, adminTestServer } from '../../http/admin/admin-client.js';
import { client, createTemplate, createUser, local } from '../../session/fixtures.js';

let server: TestServer;
let admin: AdminClient;
adminTestServer((t) => ({ server, admin } = t));

const put = (body: unknown) => admin.request('PUT', '/admin/api/knowledge', body);
const invalid = (errors: Record<string, string[]>) => ({ error_type: 'api_validation_error', error_message: 'The given data was invalid.', errors });

async function auditActions(): Promise<{ action: string; details: unknown }[]> {
  const res = await admin.request('GET', '/admin/api/audit?per_page=100');
  return items(res.body.data).map((e) => ({ action: String(e.action), details: e.details }));
}

describe('knowledge questions in the dashboard', () => {
  it('edits knowledge questions: answers are stored only as hashes and kept when not re-entered', async () => {
    const first = await put({
      questions: [
        { id: 'pet', prompt: 'First pet?', kind: 'text', answers: ['Rex'] },
        {
          id: 'colour',
          prompt: 'Colour?',
          kind: 'choice',
          choices: [
            { id: 'r', label: 'Red' },
            { id: 'b', label: 'Blue' },
          ],
          answers: ['b'],
        },
      ],
      ask: 2,
      pass_threshold: 2,
      max_attempts: 3,
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.knowledge).toEqual({
      ask: 2,
      pass_threshold: 2,
      max_attempts: 3,
      questions: [
        { id: 'pet', prompt: 'First pet?', kind: 'text', choices: null, answers_stored: 1 },
        {
          id: 'colour',
          prompt: 'Colour?',
          kind: 'choice',
          choices: [
            { id: 'r', label: 'Red' },
            { id: 'b', label: 'Blue' },
          ],
          answers_stored: 1,
        },
      ],
    });
    // The answer is the whole settings view, as GET /admin/api/settings gives it.
    expect((await admin.request('GET', '/admin/api/settings')).body).toEqual(first.body);
    const stored = await server.verity.ctx.db.selectFrom('settings').select('value').where('key', '=', 'knowledge').executeTakeFirstOrThrow();
    expect(stored.value).not.toMatch(/Rex/i);
    expect(JSON.stringify(first.body)).not.toMatch(/Rex|answer_hashes/);

    const again = await put({ questions: [{ id: 'pet', prompt: 'Your first pet?', kind: 'text' }], ask: 1, pass_threshold: 1, max_attempts: 3 });
    expect(again.status).toBe(200);
    expect(again.body.data.knowledge.questions).toEqual([{ id: 'pet', prompt: 'Your first pet?', kind: 'text', choices: null, answers_stored: 1 }]);
    expect(await auditActions()).toEqual([
      { action: 'knowledge.update', details: { questions: 1, ask: 1 } },
      { action: 'knowledge.update', details: { questions: 2, ask: 2 } },
    ]);

    // No questions: the account has none left.
    const none = await put({ questions: [], ask: 1, pass_threshold: 1, max_attempts: 3 });
    expect(none.status).toBe(200);
    expect(none.body.data.knowledge).toBeNull();
  });

  it('refuses inconsistent questions with the field at fault and saves nothing', async () => {
    const rex = { id: 'pet', prompt: 'First pet?', kind: 'text', answers: ['Rex'] };
    const refusals: [unknown, Record<string, string[]>][] = [
      [{ questions: [rex, rex], ask: 1, pass_threshold: 1, max_attempts: 3 }, { questions: ['Question id pet is used twice.'] }],
      [
        { questions: [{ id: 'new', prompt: 'Q', kind: 'text' }], ask: 1, pass_threshold: 1, max_attempts: 3 },
        { questions: ['Question new needs its accepted answers.'] },
      ],
      [
        {
          questions: [{ id: 'c', prompt: 'Q', kind: 'choice', choices: [{ id: 'r', label: 'Red' }], answers: ['blue'] }],
          ask: 1,
          pass_threshold: 1,
          max_attempts: 3,
        },
        { questions: ['knowledge question c: every answer must be one of its choice ids'] },
      ],
      [{ questions: [rex], ask: 2, pass_threshold: 1, max_attempts: 3 }, { ask: ['Cannot ask more questions than there are.'] }],
      [
        { questions: [rex], ask: 1, pass_threshold: 2, max_attempts: 3 },
        { pass_threshold: ['The pass threshold cannot exceed the number of questions asked.'] },
      ],
    ];
    for (const [body, errors] of refusals) {
      const res = await put(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual(invalid(errors));
    }
    expect((await put({ questions: [rex], ask: 1, pass_threshold: 1, max_attempts: 21 })).status).toBe(422);
    expect((await admin.request('GET', '/admin/api/settings')).body.data.knowledge).toBeNull();
    expect(await auditActions()).toEqual([]);
  });

  it('asks users the questions set here and accepts the answer given in clear text', async () => {
    expect(
      (await put({ questions: [{ id: 'pet', prompt: 'First pet?', kind: 'text', answers: ['Rex'] }], ask: 1, pass_threshold: 1, max_attempts: 2 })).status,
    ).toBe(200);
    const template = await createTemplate(server, 'tmpl_knowledge_admin', [21]);
    const { link } = await createUser(server, { email: 'kba@example.com', template_id: template });
    const session = client(server);
    await session.start(local(server, link));
    const step = (await session.session()).methods[0]!;
    if (step.key !== 'knowledge') throw new Error('no knowledge step');
    expect(step.needs.questions.map((q) => [q.id, q.prompt])).toEqual([['pet', 'First pet?']]);
    expect(step.needs.attempts_left).toBe(2);
    const done = await session.submitKnowledge({ answers: [{ question_id: 'pet', answer: 'rex' }] });
    expect(done.method.status).toBe('complete');
  });
});
