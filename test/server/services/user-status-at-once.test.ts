/**
 * Two different steps of one user finishing at the same moment (both stores): the user's status
 * changes once, with one `user.status.changed`, as it would for the two one after the other.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeSetting } from '../../../server/store/repos/settings-repo.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { atOnce } from '../../helpers/stored-uploads.js';
import { configureKnowledge, createTemplate, createUser, KNOWLEDGE_ANSWERS, sessionFor } from '../session/fixtures.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ workers: false });
});
afterEach(async () => {
  await server.close();
});

/** The user's `user.status.changed` events, oldest first, as `previous → new` from their payloads. */
async function statusChanges(id: number): Promise<string[]> {
  const rows = await server.verity.ctx.db
    .selectFrom('events')
    .select('payload')
    .where('user_id', '=', id)
    .where('type', '=', 'user.status.changed')
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => {
    const { data } = JSON.parse(r.payload) as { data: { previous_status?: string; user_status: string } };
    return `${data.previous_status ?? '?'} → ${data.user_status}`;
  });
}

async function userStatus(id: number): Promise<string> {
  const res = await server.api(`/api/users/${id}`);
  return (res.body.data as unknown as { status: string }).status;
}

describe('user status when different steps finish at once', () => {
  it('the customer API completing every step of a user at once: Verified, one event', async () => {
    const methods = ['email', 'phone', 'secure_card', 'geolocation', 'voice', 'selfie'];
    const template = await createTemplate(server, 'tmpl_all_at_once', [1, 2, 7, 8, 6, 22]);
    // A few users, so that the moves interleave in more than one order.
    for (let round = 0; round < 4; round++) {
      const { id } = await createUser(server, { email: `round${round}@example.com`, template_id: template });
      const complete = (method: string) => () =>
        server.api(`/api/users/${id}/verifications`, { method: 'PATCH', body: { verification_id: method, status: 'complete' } }).then((res) => {
          if (res.status !== 200) throw new Error(`PATCH ${method} answered ${res.status}`);
        });
      expect(await atOnce(methods.map(complete))).toEqual(methods.map(() => '200'));
      expect(await userStatus(id)).toBe('Verified');
      expect(await statusChanges(id)).toEqual(['Unconfirmed → Verified']);
    }
  });

  it('two session steps submitted at once (geolocation, knowledge): Verified, one event for it', async () => {
    await writeSetting(server.verity.ctx.db, 'allowed_countries', ['BE']);
    await configureKnowledge(server);
    for (let round = 0; round < 3; round++) {
      const { session, id } = await sessionFor(server, [8, 21]);
      // Opening the link made the user Active: one event so far.
      expect(await statusChanges(id)).toEqual(['Unconfirmed → Active']);
      const k = (await session.session()).methods.find((m) => m.key === 'knowledge');
      if (k?.key !== 'knowledge') throw new Error('no knowledge step');
      const answers = { answers: k.needs.questions.map((q) => ({ question_id: q.id, answer: KNOWLEDGE_ANSWERS[q.id]! })) };
      const outcomes = await atOnce([
        () => session.submitGeolocation({ latitude: 50.8503, longitude: 4.3517, accuracy: 10, timestamp: Date.now() }),
        () => session.submitKnowledge(answers),
      ]);
      expect(outcomes).toEqual(['200', '200']);
      expect(await userStatus(id)).toBe('Verified');
      expect(await statusChanges(id)).toEqual(['Unconfirmed → Active', 'Active → Verified']);
    }
  });
});
