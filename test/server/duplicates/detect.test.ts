/**
 * Duplicate detection (issue 23) at its service: what a capture stores, who it flags, the race of
 * two captures at once, the modes, the model identity of face vectors, and deletion. The
 * descriptors here are made-up unit vectors with a known cosine, so each expectation is exact;
 * analysis.test.ts runs the same path through the real analysis.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { faceDescriptorModel } from '../../../server/analysis/engines.js';
import { SELFIE_MATCH_THRESHOLD } from '../../../server/analysis/index.js';
import { VerificationStatus } from '../../../server/domain/catalogue.js';
import { detectDuplicates, documentIdentity, statusWithDuplicates, type CaptureEvidence } from '../../../server/duplicates/detect.js';
import { dupdb } from '../../../server/duplicates/tables.js';
import { items, startTestServer, type TestServer } from '../../helpers/server.js';
import { createTemplate } from '../session/fixtures.js';
import { signedInAdmin, type AdminClient } from '../http/admin/admin-client.js';

let server: TestServer;
let admin: AdminClient;
beforeEach(async () => {
  server = await startTestServer({ workers: false });
  admin = await signedInAdmin(server);
  await createTemplate(server, 'tmpl_dupes', [3, 22]);
});
afterEach(async () => {
  await server.close();
});

let seed = 1;
/** A deterministic pseudo-random unit vector of the descriptor's length. */
function randomUnit(): number[] {
  const v: number[] = [];
  for (let i = 0; i < 1024; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    v.push(seed / 2147483648 - 0.5);
  }
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}
/** A unit vector at cosine `c` to unit vector `v`. */
function atCosine(v: readonly number[], c: number): number[] {
  const r = randomUnit();
  const dot = r.reduce((s, x, i) => s + x * v[i]!, 0);
  const orth = r.map((x, i) => x - dot * v[i]!);
  const n = Math.hypot(...orth);
  return v.map((x, i) => c * x + Math.sqrt(1 - c * c) * (orth[i]! / n));
}

async function user(name: string): Promise<number> {
  const res = await server.api('/api/users', { body: { email: `${name}@example.test`, first_name: name, last_name: 'Tester', template_id: 'tmpl_dupes' } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Number(res.body.id);
}

const passport = (number: string, issuer = 'UTO') => ({ docType: 'passport', issuer, number });
const documentCapture = (source: string, ...documents: ReturnType<typeof passport>[]): CaptureEvidence => ({ methodId: 3, source, documents, faces: [] });
const faceCapture = (source: string, face: number[]): CaptureEvidence => ({ methodId: 22, source, documents: [], faces: [face] });

async function result(userId: number, key: string) {
  const res = await server.api(`/api/users/${userId}/verifications/${key}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('duplicate detection', () => {
  it('flags a document number already on another user on both, sends the new one to review, and ignores other issuers', async () => {
    const { ctx } = server.verity;
    const [a, b, c] = [await user('ann'), await user('bob'), await user('cyd')];
    expect((await detectDuplicates(ctx, a, documentCapture('doc_a', passport('L898902C3')))).found).toEqual([]);
    // Written differently, the same number: normalised before it is compared.
    const second = await detectDuplicates(ctx, b, documentCapture('doc_b', passport('l898-902c3')));
    expect(second.found).toEqual([{ kind: 'document', otherUserId: a, otherMethodId: 3, score: null }]);
    expect(statusWithDuplicates(VerificationStatus.complete, second)).toBe(VerificationStatus.complete_in_review);
    // The same number from another issuing state is another document.
    expect((await detectDuplicates(ctx, c, documentCapture('doc_c', passport('L898902C3', 'D')))).found).toEqual([]);

    const ra = await result(a, 'document_id');
    expect(items(ra.duplicates)).toEqual([
      expect.objectContaining({ kind: 'document', user_id: b, verification: 'document_id', found_by: 'other', score: null }),
    ]);
    expect(items(ra.checks).find((ch) => String(ch.name) === 'duplicate')).toMatchObject({ outcome: 'flagged', reason: expect.stringContaining(`user ${b}`) });
    const rb = await result(b, 'document_id');
    expect(items(rb.duplicates)).toEqual([expect.objectContaining({ kind: 'document', user_id: a, found_by: 'this' })]);
    expect(items((await result(c, 'document_id')).duplicates)).toEqual([]);
    expect(items((await result(c, 'document_id')).checks).some((ch) => String(ch.name) === 'duplicate')).toBe(false);

    // No document number is stored, only its keyed digest.
    const marks = await dupdb(ctx.db).selectFrom('identity_marks').selectAll().execute();
    expect(JSON.stringify(marks)).not.toMatch(/L898902C3/i);
    // Each side's timeline says it, through the audit log.
    const timeline = await admin.request('GET', `/admin/api/users/${a}/case`);
    expect(items(timeline.body.data.timeline).some((t) => String(t.what) === 'user.duplicate' && String(t.detail).includes(`user ${b}`))).toBe(true);
    expect(items(timeline.body.data.duplicates)).toEqual([
      expect.objectContaining({ kind: 'document', other: expect.objectContaining({ id: b, label: 'bob Tester' }) }),
    ]);
  });

  it('flags both users when two captures of one document run at the same moment', async () => {
    const { ctx } = server.verity;
    const pairs: [number, number][] = [];
    for (let i = 0; i < 6; i++) pairs.push([await user(`race${i}a`), await user(`race${i}b`)]);
    await Promise.all(
      pairs.flatMap(([x, y], i) => [
        detectDuplicates(ctx, x, documentCapture(`doc_${x}`, passport(`RACE0000${i}`))),
        detectDuplicates(ctx, y, documentCapture(`doc_${y}`, passport(`RACE0000${i}`))),
      ]),
    );
    for (const [x, y] of pairs) {
      expect(items((await result(x, 'document_id')).duplicates).map((d) => d.user_id)).toEqual([y]);
      expect(items((await result(y, 'document_id')).duplicates).map((d) => d.user_id)).toEqual([x]);
    }
  });

  it('flags a face at or above the match threshold, not one below it, and never compares another model’s vectors', async () => {
    const { ctx } = server.verity;
    const [a, same, other, fromOtherModel] = [await user('fa'), await user('fb'), await user('fc'), await user('fd')];
    const face = randomUnit();
    await detectDuplicates(ctx, a, faceCapture('chl_a', face));
    const match = await detectDuplicates(ctx, same, faceCapture('chl_b', atCosine(face, SELFIE_MATCH_THRESHOLD + 0.02)));
    expect(match.found).toEqual([{ kind: 'face', otherUserId: a, otherMethodId: 22, score: expect.closeTo(SELFIE_MATCH_THRESHOLD + 0.02, 2) }]);
    expect((await detectDuplicates(ctx, other, faceCapture('chl_c', atCosine(face, SELFIE_MATCH_THRESHOLD - 0.03)))).found).toEqual([]);

    // A vector stored under another model: the same face, but not comparable, so not compared.
    await dupdb(ctx.db).updateTable('identity_marks').set({ model: 'another-model@1' }).where('kind', '=', 'face').execute();
    expect((await detectDuplicates(ctx, fromOtherModel, faceCapture('chl_d', face))).found).toEqual([]);
    const stored = await dupdb(ctx.db).selectFrom('identity_marks').select(['model', 'vector']).where('user_id', '=', fromOtherModel).executeTakeFirstOrThrow();
    expect(stored.model).toBe(faceDescriptorModel());
    // Sealed: neither the floats nor their bytes in clear.
    expect(stored.vector).not.toContain(face[0]!.toFixed(6).slice(2));
    expect(stored.vector).not.toContain(Buffer.from(new Float32Array(face).buffer).toString('base64').slice(0, 24));

    const rs = await result(same, 'selfie');
    expect(items(rs.duplicates)).toEqual([expect.objectContaining({ kind: 'face', user_id: a, verification: 'selfie' })]);
    expect(items(rs.checks).find((ch) => String(ch.name) === 'duplicate')?.value as unknown as number).toBeGreaterThanOrEqual(SELFIE_MATCH_THRESHOLD);
  });

  it('with "flag only" flags without sending to review, and with "off" stores and flags nothing', async () => {
    const { ctx } = server.verity;
    const [a, b, c] = [await user('ma'), await user('mb'), await user('mc')];
    expect((await admin.request('GET', '/admin/api/settings')).body.data.duplicates).toEqual({ mode: 'review' });
    await detectDuplicates(ctx, a, documentCapture('doc_a', passport('MODE12345')));

    expect((await admin.request('PATCH', '/admin/api/settings', { duplicates: { mode: 'flag' } })).status).toBe(200);
    const flagged = await detectDuplicates(ctx, b, documentCapture('doc_b', passport('MODE12345')));
    expect(flagged.found).toHaveLength(1);
    expect(statusWithDuplicates(VerificationStatus.complete, flagged)).toBe(VerificationStatus.complete);

    expect((await admin.request('PATCH', '/admin/api/settings', { duplicates: { mode: 'off' } })).status).toBe(200);
    const off = await detectDuplicates(ctx, c, documentCapture('doc_c', passport('MODE12345')));
    expect(off).toEqual({ mode: 'off', found: [] });
    expect(await dupdb(ctx.db).selectFrom('identity_marks').select('id').where('user_id', '=', c).execute()).toEqual([]);
    expect(items((await result(c, 'document_id')).duplicates)).toEqual([]);
    expect((await admin.request('PATCH', '/admin/api/settings', { duplicates: { mode: 'sometimes' } })).status).toBe(422);
  });

  it('deletes a deleted user’s vectors and digests, and the flags naming them on the other user', async () => {
    const { ctx } = server.verity;
    const [a, b] = [await user('da'), await user('db')];
    const face = randomUnit();
    await detectDuplicates(ctx, a, { methodId: 3, source: 'doc_a', documents: [passport('GONE12345')], faces: [face] });
    await detectDuplicates(ctx, b, { methodId: 3, source: 'doc_b', documents: [passport('GONE12345')], faces: [atCosine(face, 0.95)] });
    expect(items((await result(b, 'document_id')).duplicates).map((d) => d.kind)).toEqual(['document', 'face']);

    expect((await server.api(`/api/users/${a}`, { method: 'DELETE' })).status).toBe(200);
    expect(await dupdb(ctx.db).selectFrom('identity_marks').select('id').where('user_id', '=', a).execute()).toEqual([]);
    expect(await dupdb(ctx.db).selectFrom('duplicate_flags').select('id').where('other_user_id', '=', a).execute()).toEqual([]);
    expect(items((await result(b, 'document_id')).duplicates)).toEqual([]);
    // B's own marks stay: a later capture of the same document on someone else still meets them.
    expect(await dupdb(ctx.db).selectFrom('identity_marks').select('id').where('user_id', '=', b).execute()).toHaveLength(2);
  });

  it('reads a document identity only from a number long enough to be one', () => {
    const field = (value: string) => ({ value, confidence: 90 });
    expect(
      documentIdentity({ doc_type: 'driving_licence', document_processor: { 'Document Number': field('D12-345-678'), 'Issuing State Code': field('ca') } }),
    ).toEqual({
      docType: 'driving_licence',
      issuer: 'CA',
      number: 'D12345678',
    });
    expect(documentIdentity({ document_processor: { 'Document Number': field('12 3') } })).toBeNull();
    expect(documentIdentity({ document_processor: {} })).toBeNull();
  });
});
