/**
 * Duplicate detection (issue 23) through the real analysis and the queue: the same licence on two
 * users, the same face on two users, different people; what the customer, the review queue and
 * the case page then show.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseDocument, analyseFrames, analyseSelfie } from '../../../server/analysis/index.js';
import { VerificationStatus } from '../../../server/domain/catalogue.js';
import { portrait } from '../../fixtures/faces.js';
import { IDENTITIES } from '../../fixtures/identities.js';
import { enqueueLicence, submitSelfie } from '../../helpers/analysis-jobs.js';
import { items, startTestServer, type TestServer } from '../../helpers/server.js';
import { signedInAdmin, type AdminClient } from '../http/admin/admin-client.js';
import { createTemplate } from '../session/fixtures.js';

let server: TestServer;
let admin: AdminClient;
beforeAll(async () => {
  server = await startTestServer({ analysis: { analyseDocument, analyseSelfie, analyseFrames } });
  admin = await signedInAdmin(server);
  await createTemplate(server, 'tmpl_dupe_doc', [3]);
  await createTemplate(server, 'tmpl_dupe_face', [22]);
});
afterAll(async () => {
  await server.close();
});

/** A user; with an identity, named as its documents name them (a name mismatch alone would send them to review). */
async function user(name: string, template: string, identity?: (typeof IDENTITIES)[number]): Promise<number> {
  const names = identity ? { first_name: identity.first, last_name: identity.last } : { first_name: name, last_name: 'Tester' };
  const res = await server.api('/api/users', { body: { email: `${name}@example.test`, ...names, template_id: template } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Number(res.body.id);
}

async function status(userId: number, methodId: number): Promise<number> {
  const row = await server.verity.ctx.db
    .selectFrom('user_verifications')
    .select('status')
    .where('user_id', '=', userId)
    .where('method_id', '=', methodId)
    .executeTakeFirstOrThrow();
  return row.status;
}

async function result(userId: number, key: string) {
  const res = await server.api(`/api/users/${userId}/verifications/${key}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('duplicate detection through the analysis', { timeout: 600_000 }, () => {
  it('flags the same licence on two users on both cases and sends the new one to review', async () => {
    const first = await user('first', 'tmpl_dupe_doc', IDENTITIES[0]);
    await enqueueLicence(server, first, IDENTITIES[0]!, 1);
    await server.verity.ctx.queue.whenIdle();
    expect(await status(first, 3)).toBe(VerificationStatus.complete);

    const second = await user('second', 'tmpl_dupe_doc', IDENTITIES[0]);
    await enqueueLicence(server, second, IDENTITIES[0]!, -1);
    await server.verity.ctx.queue.whenIdle();
    expect(await status(second, 3)).toBe(VerificationStatus.complete_in_review);

    const r2 = await result(second, 'document_id');
    expect(r2.reason).toMatch(/Possible duplicate/);
    expect(items(r2.duplicates)).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'document', user_id: first, found_by: 'this' })]));
    const r1 = await result(first, 'document_id');
    expect(r1.status.key).toBe('complete');
    expect(items(r1.duplicates)).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'document', user_id: second, found_by: 'other' })]));

    // The review queue lists the new one under the flag, saying why in words.
    const queue = await admin.request('GET', '/admin/api/reviews?flag=duplicate');
    const row = items(queue.body.data).find((r) => Number(r.user.id) === second);
    expect(items(row?.reasons).join(' ')).toMatch(new RegExp(`same document number is on user ${first}`));
    // The first one's case links to the second.
    const kase = await admin.request('GET', `/admin/api/users/${first}/case`);
    expect(items(kase.body.data.duplicates).some((d) => Number(d.other.id) === second && String(d.kind) === 'document')).toBe(true);

    // In review no verification event fires (spec); once a reviewer decides, the customer's
    // webhook for the new one carries the duplicate in its result.
    const decided = await admin.request('POST', `/admin/api/users/${second}/verifications`, {
      method: 'document_id',
      status: 'complete',
      reason: 'Same person, a renewed licence.',
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    const events = await server.verity.ctx.db
      .selectFrom('events')
      .select('payload')
      .where('user_id', '=', second)
      .where('type', 'like', 'verification.%')
      // Events of one moment keep their order by id (time-ordered UUIDv7, services/events.ts).
      .orderBy('occurred_at')
      .orderBy('id')
      .execute();
    const last = JSON.parse(events.at(-1)!.payload) as {
      data: { verifications: { id: number; attributes: { result?: { duplicates?: { user_id: number }[] } } }[] };
    };
    const entry = last.data.verifications.find((v) => v.id === 3);
    expect(entry?.attributes.result?.duplicates?.map((d) => d.user_id)).toContain(first);
  });

  it('flags the same face on two users, and not two different people', async () => {
    const [a, b, c] = [await user('facea', 'tmpl_dupe_face'), await user('faceb', 'tmpl_dupe_face'), await user('facec', 'tmpl_dupe_face')];
    await submitSelfie(server, a, await portrait(4, { width: 360 }));
    expect(await status(a, 22)).toBe(VerificationStatus.complete);
    await submitSelfie(server, b, await portrait(4, { shift: 0.06, width: 400 }));
    const rb = await result(b, 'selfie');
    expect(items(rb.duplicates)).toEqual([expect.objectContaining({ kind: 'face', user_id: a, verification: 'selfie', found_by: 'this' })]);
    expect(await status(b, 22)).toBe(VerificationStatus.complete_in_review);
    expect(items((await result(a, 'selfie')).duplicates).map((d) => d.user_id)).toEqual([b]);

    await submitSelfie(server, c, await portrait(9, { width: 360 }));
    expect(await status(c, 22)).toBe(VerificationStatus.complete);
    expect(items((await result(c, 'selfie')).duplicates)).toEqual([]);
  });
});
