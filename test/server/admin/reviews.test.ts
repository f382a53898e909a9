/**
 * Issue 23: the review queue. Users waiting for a decision (a verification in review, or the user
 * in Review), oldest entry first, each with why in words, filterable by flag, method, template and
 * the day it entered review, a page at a time.
 */
import { insertAnalysedDocumentJob } from '../../helpers/document-jobs.js';
import { describe, expect, it } from 'vitest';
import { VerificationStatus } from '../../../server/domain/catalogue.js';
import { markDocumentProcessing, moveDocument } from '../../../server/services/document-jobs.js';
import { moveVerification, setUserStatus } from '../../../server/services/verifications.js';
import type { ManualClock } from '../../helpers/manual-clock.js';
import { items, type Json, type TestServer } from '../../helpers/server.js';
import { AdminClient, adminTestServer } from '../http/admin/admin-client.js';

let server: TestServer;
let clock: ManualClock;
let admin: AdminClient;
adminTestServer((t) => ({ server, clock, admin } = t), { workers: false });

const HOUR = 60 * 60 * 1000;

async function user(name: string, template: string): Promise<number> {
  const res = await server.api('/api/users', { body: { email: `${name}@example.test`, first_name: name, last_name: 'Tester', template_id: template } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Number(res.body.id);
}

/** A document the analysis read and sent to review with these flags. */
async function documentInReview(userId: number, content: Record<string, unknown>, flags: string[], requirements: unknown[] = []): Promise<void> {
  const { ctx } = server.verity;
  const docId = `doc_${userId}`;
  await insertAnalysedDocumentJob(ctx.db, { userId, docId, content, size: 1, now: ctx.clock.now() });
  await ctx.db.transaction().execute(async (trx) => {
    await markDocumentProcessing(trx, ctx.clock, userId);
    await moveDocument(trx, ctx.clock, userId, VerificationStatus.complete_in_review, {
      remarks: null,
      attributes: { verify_documents: [{ doc_id: docId, side: 'front', document_status: 'Success', reason: null, flags }], requirements },
    });
  });
}

const CLEAN = { photoshopped: false, mrz_data: [{ valid: true }], ai_analysis: { name_match: { full_name: true }, internet_detection: false } };

/** A selfie the face analysis left in review (or rejected) for these reasons. */
async function selfie(userId: number, status: number, reasons: string[], similarity: number): Promise<void> {
  const { ctx } = server.verity;
  await ctx.db.transaction().execute(async (trx) => {
    await moveVerification(trx, ctx.clock, userId, 22, VerificationStatus.processing);
    await moveVerification(trx, ctx.clock, userId, 22, status as 0, {
      remarks: reasons.join(','),
      attributes: { decision: status === VerificationStatus.rejected ? 'rejected' : 'review', reasons, similarity },
    });
  });
}

async function queue(query = ''): Promise<{ ids: number[]; body: Json }> {
  const res = await admin.request('GET', `/admin/api/reviews${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ids: items(res.body.data).map((r) => Number(r.user.id)), body: res.body };
}

/** Four waiting users entering review an hour apart, not in the order they were created, and two who are not waiting. */
async function seed(): Promise<Record<string, number>> {
  const edited = await user('edited', 'tmpl_document');
  const uncertain = await user('uncertain', 'tmpl_selfie');
  const mismatch = await user('mismatch', 'tmpl_id_selfie');
  const byHand = await user('byhand', 'tmpl_contact');
  const fine = await user('fine', 'tmpl_document');
  await user('untouched', 'tmpl_contact');

  await selfie(uncertain, VerificationStatus.complete_in_review, ['FACE_MATCH_UNCERTAIN'], 0.41);
  clock.advance(HOUR);
  await documentInReview(edited, { ...CLEAN, photoshopped: true }, ['photoshopped']);
  clock.advance(HOUR);
  await documentInReview(mismatch, { ...CLEAN, ai_analysis: { name_match: { full_name: false }, internet_detection: true } }, []);
  clock.advance(HOUR);
  const { ctx } = server.verity;
  // A reviewer sets the status by hand (the route is the same service; the session would have idled out).
  await ctx.db.transaction().execute((trx) => setUserStatus(trx, ctx.clock, byHand, 'Unconfirmed', 'Review'));
  await ctx.db.transaction().execute((trx) => moveDocument(trx, ctx.clock, fine, VerificationStatus.complete, { remarks: null }));
  // Hours went by: the reviewer signs in again (the session idles out).
  expect((await admin.login()).status).toBe(200);
  return { edited, uncertain, mismatch, byHand, fine };
}

describe('the review queue', () => {
  it('refuses an anonymous caller with 401 before it looks at the query', async () => {
    const anonymous = new AdminClient(server);
    const res = await anonymous.request('GET', '/admin/api/reviews?per_page=oops&flag=nonsense');
    expect(res.status).toBe(401);
    expect(res.body.error_type).toBeDefined();
    expect(JSON.stringify(res.body)).not.toContain('per_page');
  });

  it('lists the users waiting, oldest entry first, each saying why in words', async () => {
    const u = await seed();
    const { ids, body } = await queue();
    expect(ids).toEqual([u.uncertain, u.edited, u.mismatch, u.byHand]);
    expect(body.meta).toEqual({ page: 1, per_page: 20, total: 4, last_page: 1 });
    const rows = items(body.data);
    expect(rows[0]!.entered_review_at).toBe('2026-05-10T12:00:00.000Z');
    expect(rows[0]!.reasons).toEqual(['Selfie: The face match is uncertain: a person should look.']);
    expect(rows[1]!.reasons).toEqual(['Document / ID: The image was edited (editing software, or a pasted region).']);
    expect(rows[1]!.template).toEqual({ name: 'tmpl_document', label: 'Single document check' });
    expect(rows[2]!.flags).toEqual(expect.arrayContaining(['screen_recapture', 'name_match']) as unknown as Json);
    expect(items(rows[2]!.reasons).map(String)).toEqual(
      expect.arrayContaining(["Document / ID: The name on the document does not match the user's name.", 'Document / ID: The image is a photo of a screen.']),
    );
    expect(rows[3]!.reasons).toEqual(['The user was set to Review by hand.']);
    expect(rows[3]!.entered_review_at).toBe('2026-05-10T15:00:00.000Z');
  });

  it('filters by flag, method, template and the day the user entered review', async () => {
    const u = await seed();
    expect((await queue('?flag=photoshopped')).ids).toEqual([u.edited]);
    expect((await queue('?flag=face_match')).ids).toEqual([u.uncertain]);
    expect((await queue('?flag=name_match')).ids).toEqual([u.mismatch]);
    expect((await queue('?flag=screen_recapture')).ids).toEqual([u.mismatch]);
    expect((await queue('?flag=mrz_check_digits')).ids).toEqual([]);
    expect((await queue('?method=selfie')).ids).toEqual([u.uncertain]);
    expect((await queue('?method=document_id')).ids).toEqual([u.edited, u.mismatch]);
    expect((await queue('?template=tmpl_id_selfie')).ids).toEqual([u.mismatch]);
    expect((await queue('?template=tmpl_document&flag=photoshopped')).ids).toEqual([u.edited]);
    expect((await queue('?from=2026-05-10&to=2026-05-10')).ids).toHaveLength(4);
    expect((await queue('?from=2026-05-11')).ids).toEqual([]);
    expect((await queue('?to=2026-05-09')).ids).toEqual([]);
  });

  it("filters by the customer's document requirements and by the DEA number's checks, saying why in words", async () => {
    const u = await seed();
    const required = await user('underage', 'tmpl_document');
    clock.advance(HOUR);
    await documentInReview(
      required,
      CLEAN,
      [],
      [
        { name: 'required_document_type', outcome: 'failed', reason: 'A driving_licence, not among passport.', value: null, machine_read: true },
        { name: 'required_minimum_age', outcome: 'passed', reason: null, value: 30, machine_read: true },
      ],
    );
    // A DEA number whose check digit fails (1+3+5 + 2×(2+4+6) = 33, not …7), on a user set to Review by hand.
    const res = await server.api('/api/users', {
      body: { email: 'dea@example.test', first_name: 'Dee', last_name: 'Brown', template_id: 'tmpl_contact', deaNumber: 'AB1234567' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const dea = Number(res.body.id);
    const { ctx } = server.verity;
    await ctx.db.transaction().execute((trx) => setUserStatus(trx, ctx.clock, dea, 'Unconfirmed', 'Review'));
    expect((await admin.login()).status).toBe(200);

    const byRequirement = await queue('?flag=required_document_type');
    expect(byRequirement.ids).toEqual([required]);
    expect(items(byRequirement.body.data)[0]!.reasons).toEqual(['Document / ID: A driving_licence, not among passport.']);
    // A requirement that passed is no reason to be here.
    expect((await queue('?flag=required_minimum_age')).ids).toEqual([]);

    const byDea = await queue('?flag=dea_check_digit');
    expect(byDea.ids).toEqual([dea]);
    expect(items(byDea.body.data)[0]!.reasons).toEqual([
      'The user was set to Review by hand.',
      'DEA number: The check digit does not hold: the number is mistyped or made up.',
    ]);
    // Brown's initial is B: that check passed; no registry is configured, so it did not run.
    expect((await queue('?flag=dea_registrant_initial')).ids).toEqual([]);
    expect((await queue('?flag=dea_registry')).ids).toEqual([]);
    // The rest of the queue is unchanged by the new flags.
    expect((await queue('?flag=photoshopped')).ids).toEqual([u.edited]);
  });

  it('answers a page at a time, with a flag too, and the spec error body for a bad filter', async () => {
    const u = await seed();
    const first = await queue('?per_page=2');
    expect(first.ids).toEqual([u.uncertain, u.edited]);
    expect(first.body.meta).toEqual({ page: 1, per_page: 2, total: 4, last_page: 2 });
    expect((await queue('?per_page=2&page=2')).ids).toEqual([u.mismatch, u.byHand]);
    expect((await queue('?per_page=2&page=3')).ids).toEqual([]);
    const other = await user('recaptured', 'tmpl_document');
    clock.advance(HOUR);
    await documentInReview(other, { ...CLEAN, ai_analysis: { name_match: { full_name: true }, internet_detection: true } }, []);
    expect((await admin.login()).status).toBe(200);
    const flagged = await queue('?flag=screen_recapture&per_page=1&page=2');
    expect(flagged.ids).toEqual([other]);
    expect(flagged.body.meta).toEqual({ page: 2, per_page: 1, total: 2, last_page: 2 });

    for (const bad of ['?flag=nonsense', '?method=telepathy', '?template=tmpl_nope', '?from=yesterday', '?from=2026-05-11&to=2026-05-10', '?per_page=101']) {
      const res = await admin.request('GET', `/admin/api/reviews${bad}`);
      expect(res.status, bad).toBe(422);
      expect(res.body.error_type, bad).toBeDefined();
      expect(res.body.errors, bad).toBeDefined();
    }
  });
});

describe('the case on the user page', () => {
  it("gives each verification's checks with outcome, reason and number", async () => {
    const u = await seed();
    const res = await admin.request('GET', `/admin/api/users/${u.mismatch}`);
    expect(res.status).toBe(200);
    const byKey = Object.fromEntries(items(res.body.data.verifications).map((v) => [String(v.key), v]));
    const docChecks = Object.fromEntries(items(byKey.document_id!.checks).map((c) => [String(c.name), c]));
    expect(docChecks.name_match).toEqual({
      name: 'name_match',
      outcome: 'flagged',
      reason: "The name on the document does not match the user's name.",
      value: null,
    });
    expect(docChecks.screen_recapture!.outcome).toBe('flagged');
    expect(docChecks.mrz_check_digits!.outcome).toBe('passed');
    // The selfie was never analysed: no checks, not invented passes.
    expect(byKey.selfie!.checks).toEqual([]);
    const selfie = await admin.request('GET', `/admin/api/users/${u.uncertain}`);
    const face = items(items(selfie.body.data.verifications)[0]!.checks).find((c) => String(c.name) === 'face_match')!;
    expect(face).toEqual({ name: 'face_match', outcome: 'flagged', reason: 'The face match is uncertain: a person should look.', value: 0.41 });
  });
});
