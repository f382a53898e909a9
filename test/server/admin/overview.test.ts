/**
 * Issue 23: the overview's chart series. Decisions per day count each decided verification once,
 * on the day of its last decision, by its outcome; pass rates count each check of each decided
 * verification once (a document's front and back fold into the worse outcome), checks that did
 * not run left out.
 */
import { describe, expect, it } from 'vitest';
import { VerificationStatus, type VerificationStatusValue } from '../../../server/domain/catalogue.js';
import { markDocumentProcessing, moveDocument } from '../../../server/services/document-jobs.js';
import { moveVerification } from '../../../server/services/verifications.js';
import { insertAnalysedDocumentJob } from '../../helpers/document-jobs.js';
import type { ManualClock } from '../../helpers/manual-clock.js';
import { items, type Json, type TestServer } from '../../helpers/server.js';
import { type AdminClient, adminTestServer } from '../http/admin/admin-client.js';

let server: TestServer;
let admin: AdminClient;
let clock: ManualClock;
adminTestServer((t) => ({ server, clock, admin } = t));

async function user(name: string, template: string): Promise<number> {
  const res = await server.api('/api/users', { body: { email: `${name}@example.test`, first_name: name, last_name: 'Tester', template_id: template } });
  expect(res.status, res.text).toBe(200);
  return Number(res.body.id);
}

/** The analysis read one document side with `content` and decided `status` with `flags`. */
async function document(userId: number, status: VerificationStatusValue, content: Record<string, unknown>, flags: string[] = []): Promise<void> {
  const { ctx } = server.verity;
  const docId = `doc_${userId}`;
  await insertAnalysedDocumentJob(ctx.db, { userId, docId, content, size: 1, now: ctx.clock.now() });
  await ctx.db.transaction().execute(async (trx) => {
    await markDocumentProcessing(trx, ctx.clock, userId);
    await moveDocument(trx, ctx.clock, userId, status, {
      remarks: null,
      attributes: { verify_documents: [{ doc_id: docId, side: 'front', document_status: 'Success', reason: null, flags }] },
    });
  });
}

/** A selfie (method 22) analysed to `status` with the face analysis's reason codes. */
async function selfie(userId: number, status: VerificationStatusValue, reasons: string[], similarity: number): Promise<void> {
  const { ctx } = server.verity;
  await ctx.db.transaction().execute(async (trx) => {
    await moveVerification(trx, ctx.clock, userId, 22, VerificationStatus.processing);
    await moveVerification(trx, ctx.clock, userId, 22, status, {
      remarks: reasons.join(',') || null,
      attributes: {
        decision: status === VerificationStatus.complete ? 'approved' : status === VerificationStatus.rejected ? 'rejected' : 'review',
        reasons,
        similarity,
      },
    });
  });
}

async function overview(): Promise<Json> {
  const res = await admin.request('GET', '/admin/api/overview');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const CLEAN = { photoshopped: false, mrz_data: [{ valid: true }], ai_analysis: { name_match: { full_name: true }, internet_detection: false } };

describe('GET /admin/api/overview: chart series', () => {
  it('counts decisions per day by outcome over the last 30 days, every day listed', async () => {
    const early = await user('early', 'tmpl_selfie');
    await selfie(early, VerificationStatus.complete, [], 0.9);
    clock.advance(2 * 24 * 60 * 60 * 1000); // 2026-05-12
    const approved = await user('approved', 'tmpl_selfie');
    const rejected = await user('rejected', 'tmpl_selfie');
    const review = await user('review', 'tmpl_selfie');
    await selfie(approved, VerificationStatus.complete, [], 0.88);
    await selfie(rejected, VerificationStatus.rejected, ['FACE_MISMATCH'], 0.1);
    await selfie(review, VerificationStatus.complete_in_review, ['FACE_MATCH_UNCERTAIN'], 0.45);

    await admin.login(); // the session from two days ago has idled out
    const body = await overview();
    expect(body.days).toBe(30);
    const days = items(body.decisions_per_day);
    expect(days).toHaveLength(30);
    expect(days[0]!.date).toBe('2026-04-13');
    expect(days.at(-1)).toEqual({ date: '2026-05-12', approved: 1, rejected: 1, review: 1 });
    expect(days.find((d) => String(d.date) === '2026-05-10')).toEqual({ date: '2026-05-10', approved: 1, rejected: 0, review: 0 });
    expect(days.filter((d) => Number(d.approved) + Number(d.rejected) + Number(d.review) > 0)).toHaveLength(2);

    // Thirty days on, the first decision has left the window; a redo takes one out of the count.
    clock.advance(28 * 24 * 60 * 60 * 1000); // 2026-06-09: window 2026-05-11 … 2026-06-09
    const { ctx } = server.verity;
    await ctx.db.transaction().execute((trx) => moveVerification(trx, ctx.clock, review, 22, VerificationStatus.reset));
    await admin.login();
    const later = items((await overview()).decisions_per_day);
    expect(later[0]!.date).toBe('2026-05-11');
    expect(later.find((d) => String(d.date) === '2026-05-12')).toEqual({ date: '2026-05-12', approved: 1, rejected: 1, review: 0 });
    expect(later.reduce((n, d) => n + Number(d.approved), 0)).toBe(1);
  });

  it('gives each check its pass rate over decided verifications, not-run checks left out', async () => {
    await document(await user('clean', 'tmpl_document'), VerificationStatus.complete, CLEAN);
    await document(await user('edited', 'tmpl_document'), VerificationStatus.complete_in_review, { ...CLEAN, photoshopped: true }, ['photoshopped']);
    // No name given to compare: name_match did not run for this one.
    await document(await user('noname', 'tmpl_document'), VerificationStatus.complete, { photoshopped: false, mrz_data: [{ valid: false }] });
    await selfie(await user('face-ok', 'tmpl_selfie'), VerificationStatus.complete, [], 0.9);
    await selfie(await user('face-bad', 'tmpl_selfie'), VerificationStatus.rejected, ['FACE_MISMATCH'], 0.12);
    // Created but never analysed: no checks at all.
    await user('waiting', 'tmpl_selfie');

    const rates = new Map(items((await overview()).check_pass_rates).map((r) => [String(r.check), r]));
    expect(rates.get('photoshopped')).toEqual({ check: 'photoshopped', passed: 2, flagged: 1, failed: 0, rate: 2 / 3 });
    expect(rates.get('mrz_check_digits')).toEqual({ check: 'mrz_check_digits', passed: 2, flagged: 0, failed: 1, rate: 2 / 3 });
    expect(rates.get('name_match')).toEqual({ check: 'name_match', passed: 2, flagged: 0, failed: 0, rate: 1 });
    expect(rates.get('face_match')).toEqual({ check: 'face_match', passed: 1, flagged: 0, failed: 1, rate: 0.5 });
    expect(rates.get('face_present')).toEqual({ check: 'face_present', passed: 2, flagged: 0, failed: 0, rate: 1 });
    // Sorted by name, so the table reads the same every time.
    const names = [...rates.keys()];
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it('answers an empty account with zeroes and no rates', async () => {
    const body = await overview();
    expect(items(body.decisions_per_day).every((d) => Number(d.approved) + Number(d.rejected) + Number(d.review) === 0)).toBe(true);
    expect(body.check_pass_rates).toEqual([]);
    expect(body.users_per_status).toEqual({ total: 0, new: 0, banned: 0, unconfirmed: 0 });
  });
});
