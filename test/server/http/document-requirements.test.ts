/**
 * Issue 23: the `document` section of `custom_verify_data` (spec 4.3) checked on create and
 * update, and enforced by the document decision, each requirement a named check in the result
 * the customer reads (`GET /api/users/{id}/verifications/document_id`, the webhook's
 * `attributes.result`). The analysis engine is a stand-in answering a given reading, so each test
 * controls exactly what was "read"; the readings themselves are tested in test/server/analysis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentAnalysis, DocumentContent } from '../../../server/analysis/index.js';
import { ANALYSIS_QUEUE, type DocumentAnalysisJob } from '../../../server/domain/analysis-jobs.js';
import { markDocumentProcessing } from '../../../server/services/document-jobs.js';
import { successfulAnalysis } from '../../helpers/document-analysis.js';
import { ManualClock } from '../../helpers/manual-clock.js';
import { items, startTestServer, type Json, type TestServer } from '../../helpers/server.js';

type Fields = Record<string, { value: string | number; confidence: number }>;

/** What the stand-in engine answers for the next images, one per side. */
let readings: DocumentAnalysis[] = [];
const clock = new ManualClock('2026-06-15T12:00:00.000Z');
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    clock,
    analysis: {
      analyseDocument: () => {
        const next = readings.shift();
        return next ? Promise.resolve(next) : Promise.reject(new Error('no reading prepared'));
      },
      analyseSelfie: () => Promise.reject(new Error('not used')),
      analyseFrames: () => Promise.reject(new Error('not used')),
    },
  });
});
afterAll(async () => {
  await server.close();
});

/** A successful reading: an MRZ's fields (confidence 95) unless `fields` says otherwise. */
function reading(fields: Fields, extra: Partial<DocumentContent> = {}, machineReadable = true): DocumentAnalysis {
  return successfulAnalysis(
    {
      original_name: 'front',
      ai_analysis: { name_match: { full_name: true, last_name: true }, internet_detection: false },
      document_processor: fields,
      ...extra,
    },
    { barcode: false, mrz: machineReadable ? 'valid' : null, face: false },
  );
}

const MRZ = 95;
const passport = (over: Fields = {}): Fields => ({
  'Full Name': { value: 'ANNA ERIKSSON', confidence: MRZ },
  'Date of Birth': { value: '1990-04-12', confidence: MRZ },
  'Date of Expiry': { value: '2030-01-01', confidence: MRZ },
  'Issuing State Code': { value: 'SWE', confidence: MRZ },
  ...over,
});

async function createUser(customVerifyData: unknown): Promise<number> {
  const res = await server.api('/api/users', {
    body: {
      email: `u${Math.random().toString(36).slice(2)}@example.test`,
      first_name: 'Anna',
      last_name: 'Eriksson',
      template_id: 'tmpl_document',
      custom_verify_data: JSON.stringify(customVerifyData),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Number(res.body.id);
}

/** Submits one document (a side per reading) through the analysis queue and waits for the decision. */
async function submit(userId: number, sides: DocumentAnalysis[]): Promise<Json> {
  const { ctx } = server.verity;
  readings = [...sides];
  const images = await Promise.all(
    sides.map(async (_, i) => {
      const blobKey = `users/${userId}/session/upl_${userId}_${i}`;
      await ctx.blobs.put(blobKey, Buffer.from('not read by the stand-in'), 'image/jpeg');
      return { uploadId: `upl_${userId}_${i}`, blobKey, mediaType: 'image/jpeg', size: 24, source: 'upload' as const, quality: null };
    }),
  );
  const job: DocumentAnalysisJob = {
    kind: 'document',
    userId,
    methodId: 3,
    workflowRawId: null,
    documentType: 'passport',
    front: images[0]!,
    back: images[1] ?? null,
    submittedAt: ctx.clock.now().toISOString(),
  };
  await ctx.db.transaction().execute(async (trx) => {
    await markDocumentProcessing(trx, ctx.clock, userId);
    await ctx.queue.enqueue(ANALYSIS_QUEUE, job, {}, trx);
  });
  await ctx.queue.whenIdle();
  const res = await server.api(`/api/users/${userId}/verifications/document_id`);
  expect(res.status).toBe(200);
  return res.body;
}

const check = (result: Json, name: string): Json | undefined => items(result.checks).find((c) => String(c.name) === name);

describe('custom_verify_data.document: validation', () => {
  it('refuses a malformed section with 422 api_validation_error naming the requirement, on create and update', async () => {
    const bad = await server.api('/api/users', {
      body: { email: 'bad@example.test', custom_verify_data: JSON.stringify({ document: { minimum_age: 'eighteen', issuing_states: ['ZZ'] } }) },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error_type).toBe('api_validation_error');
    const messages = (bad.body.errors.custom_verify_data as unknown as string[]).join(' ');
    expect(messages).toContain('document.minimum_age');
    expect(messages).toContain('document.issuing_states.0');

    for (const document of [{}, { on_failure: 'reject' }, { colour: 'blue' }, { expiry_margin_days: -1 }, { date_of_birth: '1990-02-30' }, 'passport']) {
      const res = await server.api('/api/users', { body: { email: 'bad@example.test', custom_verify_data: JSON.stringify({ document }) } });
      expect(res.status, JSON.stringify(document)).toBe(422);
      expect(Object.keys(res.body.errors as object)).toEqual(['custom_verify_data']);
    }

    const userId = await createUser({ document: { minimum_age: 18 } });
    const update = await server.api(`/api/users/${userId}`, {
      method: 'PATCH',
      body: { custom_verify_data: JSON.stringify({ document: { document_types: ['library_card'] } }) },
    });
    expect(update.status).toBe(422);
    expect((update.body.errors.custom_verify_data as unknown as string[])[0]).toContain('document.document_types.0');
  });

  it('keeps accepting what an existing integration sends: other keys, and data without a document section', async () => {
    for (const data of [{ anything: { goes: true } }, [1, 2], 'text', { document: { minimum_age: 18 }, crm: 'x' }]) {
      const res = await server.api('/api/users', { body: { email: 'ok@example.test', custom_verify_data: JSON.stringify(data) } });
      expect(res.status, JSON.stringify(data)).toBe(200);
    }
  });
});

describe('custom_verify_data.document: the decision', () => {
  it('completes a document that meets every requirement, each named as passed', async () => {
    const userId = await createUser({
      document: {
        document_types: ['passport'],
        issuing_countries: ['swe', 'NOR'],
        minimum_age: 21,
        name_match: 'full_name',
        date_of_birth: '1990-04-12',
        expiry_margin_days: 30,
      },
    });
    const result = await submit(userId, [reading(passport())]);
    expect(result.status.key).toBe('complete');
    for (const name of ['required_document_type', 'required_issuing_country', 'required_name_match', 'required_date_of_birth']) {
      expect(check(result, name)?.outcome, name).toBe('passed');
    }
    expect(check(result, 'required_minimum_age')).toMatchObject({ outcome: 'passed', value: 36 });
    expect(check(result, 'required_expiry_margin')).toMatchObject({ outcome: 'passed', value: 1296 });
  });

  it('sends each failed requirement to review by default, named with its reason, in the result and the webhook', async () => {
    const userId = await createUser({
      document: { document_types: ['driving_licence'], issuing_countries: ['USA'], minimum_age: 40, date_of_birth: '1991-04-12', expiry_margin_days: 30 },
    });
    const result = await submit(userId, [reading(passport({ 'Date of Expiry': { value: '2026-07-01', confidence: MRZ } }))]);
    expect(result.status.key).toBe('complete_in_review');
    expect(check(result, 'required_document_type')).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('passport') as unknown as Json });
    expect(check(result, 'required_issuing_country')).toMatchObject({ outcome: 'failed', reason: 'Issued by SWE, not among USA.' });
    expect(check(result, 'required_minimum_age')).toMatchObject({ outcome: 'failed', value: 36 });
    expect(check(result, 'required_date_of_birth')?.outcome).toBe('failed');
    expect(check(result, 'required_expiry_margin')).toMatchObject({
      outcome: 'failed',
      value: 16,
      reason: expect.stringContaining('within 30 days') as unknown as Json,
    });

    const events = await server.verity.ctx.db.selectFrom('events').select(['type', 'payload']).where('user_id', '=', userId).execute();
    // The review is announced by user.status.changed; the document's entry carries each requirement in its attributes.
    const decided = events
      .map((e) => items((JSON.parse(e.payload) as Json).data.verifications).find((v) => Number(v.id) === 3))
      .find((v) => Number(v?.status.value) === 4);
    expect(items(decided!.attributes.requirements).find((c) => String(c.name) === 'required_minimum_age')).toMatchObject({ outcome: 'failed', value: 36 });
  });

  it('rejects with on_failure "reject" only on a machine-read value; a printed one still goes to review', async () => {
    const strict = { document: { minimum_age: 40, on_failure: 'reject' } };
    const machine = await submit(await createUser(strict), [reading(passport())]);
    expect(machine.status.key).toBe('rejected');
    expect(check(machine, 'required_minimum_age')?.outcome).toBe('failed');
    // The rejection's webhook carries the result with the requirement that rejected.
    const events = await server.verity.ctx.db
      .selectFrom('events')
      .select('payload')
      .where('user_id', '=', Number(machine.user_id))
      .where('type', '=', 'verification.rejected')
      .execute();
    const entry = items((JSON.parse(events[0]!.payload) as Json).data.verifications).find((v) => Number(v.id) === 3)!;
    expect(items(entry.attributes.result.checks).find((c) => String(c.name) === 'required_minimum_age')).toMatchObject({ outcome: 'failed' });

    const printed = passport({ 'Date of Birth': { value: '1990-04-12', confidence: 70 } });
    const ocr = await submit(await createUser(strict), [reading(printed, {}, false)]);
    expect(ocr.status.key).toBe('complete_in_review');
    expect(check(ocr, 'required_minimum_age')?.outcome).toBe('failed');
  });

  it('flags a requirement whose value was not read, and never completes without it', async () => {
    const userId = await createUser({ document: { minimum_age: 18, expiry_margin_days: 0 } });
    const fields = passport();
    delete fields['Date of Birth'];
    const result = await submit(userId, [reading(fields)]);
    expect(result.status.key).toBe('complete_in_review');
    expect(check(result, 'required_minimum_age')).toMatchObject({ outcome: 'flagged', reason: expect.stringContaining('date of birth') as unknown as Json });
    expect(check(result, 'required_expiry_margin')?.outcome).toBe('passed');
  });

  it('reads a two-sided licence as one document: the back’s barcode outranks the front’s OCR, and the state is checked', async () => {
    const userId = await createUser({ document: { issuing_states: ['CA', 'NY'], date_of_birth: '1990-04-12', name_match: 'last_name' } });
    const front = reading(
      { 'Date of Birth': { value: '1998-04-12', confidence: 60 }, 'Issuing State Code': { value: 'CA', confidence: 60 } },
      { doc_type: 'driving_licence', ai_analysis: { name_match: { full_name: false, last_name: false } } },
      false,
    );
    const back = reading(
      {
        'Full Name': { value: 'ANNA ERIKSSON', confidence: 99 },
        'Date of Birth': { value: '1990-04-12', confidence: 99 },
        'Issuing State Code': { value: 'CA', confidence: 99 },
      },
      { doc_type: 'driving_licence' },
    );
    const result = await submit(userId, [front, back]);
    expect(check(result, 'required_date_of_birth')?.outcome).toBe('passed');
    expect(check(result, 'required_issuing_state')?.outcome).toBe('passed');
    expect(check(result, 'required_name_match')?.outcome).toBe('passed');

    const texan = await createUser({ document: { issuing_states: ['NY'] } });
    const tx = await submit(texan, [reading({ 'Issuing State Code': { value: 'TX', confidence: 99 } }, { doc_type: 'driving_licence' })]);
    expect(tx.status.key).toBe('complete_in_review');
    expect(check(tx, 'required_issuing_state')).toMatchObject({ outcome: 'failed', reason: 'Issued by TX, not among NY.' });
  });

  it('applies requirements changed by an update to the next document', async () => {
    const userId = await createUser({ document: { minimum_age: 18 } });
    const update = await server.api(`/api/users/${userId}`, {
      method: 'PATCH',
      body: { custom_verify_data: JSON.stringify({ document: { minimum_age: 50 } }) },
    });
    expect(update.status).toBe(200);
    const result = await submit(userId, [reading(passport())]);
    expect(result.status.key).toBe('complete_in_review');
    expect(check(result, 'required_minimum_age')?.reason).toContain('minimum age of 50');
  });
});
