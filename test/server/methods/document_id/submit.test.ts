/** The document step through the session API: uploads checked by content and size, submission to analysis, several workflows. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findWorkflow, insertTemplate } from '../../../../server/store/repos/templates-repo.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';
import { atOnce, storedUploads } from '../../../helpers/stored-uploads.js';
import { analysisJobs, client, createUser, eventTypes, failure, giveConsent, jpegImage, local, pngImage, sessionFor } from '../../session/fixtures.js';

let server: TestServer;
beforeEach(async () => {
  // No workers: the analysis engine (once registered) must not consume the jobs these tests inspect.
  server = await startTestServer({ workers: false });
});
afterEach(async () => {
  await server.close();
});

describe('document upload and submit', () => {
  it('checks uploads by content and size, then submits to processing with an analysis job', async () => {
    const { session, id } = await sessionFor(server, [3]);
    const view = await session.session();
    const doc = view.methods[0]!;
    if (doc.key !== 'document_id') throw new Error('no document step');
    expect(doc.needs.document_types.map((t) => t.key)).toEqual(['passport', 'id_card', 'driving_licence']);
    expect(doc.needs.max_bytes).toBe(10 * 1024 * 1024 - 1);

    // A text file named like a JPEG is refused by its bytes.
    const fake = await failure(
      session.uploadDocument({ document_type: 'id_card', side: 'front', source: 'upload' }, new Blob(['not an image at all']), 'id.jpg'),
    );
    expect(fake.status).toBe(422);
    expect(fake.error_type).toBe('session_upload_invalid');
    // 10 MB is not "less than 10 MB".
    const big = Buffer.alloc(10 * 1024 * 1024, 0);
    (await pngImage()).copy(big);
    const tooBig = await failure(session.uploadDocument({ document_type: 'id_card', side: 'front', source: 'upload' }, new Blob([big]), 'big.png'));
    expect(tooBig.status).toBe(413);
    expect(tooBig.error_type).toBe('session_upload_too_large');

    const front = await session.uploadDocument(
      {
        document_type: 'id_card',
        side: 'front',
        source: 'camera',
        quality: JSON.stringify({ blur_variance: 180, glare_ratio: 0.01, mean_luma: 120, document_found: true, good_frames: 5 }),
      },
      new Blob([await jpegImage()]),
      'front.jpg',
    );
    expect(front).toMatchObject({ document_type: 'id_card', side: 'front', media_type: 'image/jpeg' });
    // Two-sided: submitting without the back is refused.
    const noBack = await failure(session.submitDocument({ document_type: 'id_card', front_upload_id: front.upload_id }));
    expect(noBack.status).toBe(422);
    expect(noBack.errors.back_upload_id).toBeDefined();
    const back = await session.uploadDocument({ document_type: 'id_card', side: 'back', source: 'upload' }, new Blob([await pngImage()]), 'back.png');
    expect((await session.session()).methods[0]!.key === 'document_id').toBe(true);

    const result = await session.submitDocument({ document_type: 'id_card', front_upload_id: front.upload_id, back_upload_id: back.upload_id });
    expect(result.method.status).toBe('processing');
    expect(result.state).toBe('ready_to_complete');
    expect(await eventTypes(server, id)).toContain('verification.pending');

    const [job] = await analysisJobs(server);
    if (job?.kind !== 'document') throw new Error('no document job');
    expect(job).toMatchObject({
      userId: id,
      methodId: 3,
      documentType: 'id_card',
      front: { uploadId: front.upload_id, mediaType: 'image/jpeg', source: 'camera' },
      back: { uploadId: back.upload_id, mediaType: 'image/png' },
    });
    expect(job.workflowRawId).toEqual(expect.any(Number));
    const stored = await server.verity.ctx.blobs.get(job.front.blobKey);
    expect(stored?.contentType).toBe('image/jpeg');
    expect(job.front.blobKey.startsWith(`users/${id}/`)).toBe(true);
    // Nothing fakes the result: the session side leaves the method processing for the analysis engine.
    expect((await session.session()).methods[0]!.status).toBe('processing');
  });
});

describe('document uploads and submits at the same moment', () => {
  it('the same side twice at once: each is its own upload with its file (an upload replaces nothing); one submit of two at once', async () => {
    const { session, id } = await sessionFor(server, [3]);
    const bytes = await jpegImage();
    const side = () => session.uploadDocument({ document_type: 'passport', side: 'front', source: 'upload' }, new Blob([new Uint8Array(bytes)]), 'p.jpg');
    const [a, b] = await Promise.all([side(), side()]);
    expect(a.upload_id).not.toBe(b.upload_id);
    const { rows, files } = await storedUploads(server, id);
    expect(rows.map((r) => r.blob_key).sort()).toEqual(files);
    expect(files).toHaveLength(2);
    const submit = (upload: string) => () => session.submitDocument({ document_type: 'passport', front_upload_id: upload });
    const outcomes = await atOnce([submit(a.upload_id), submit(b.upload_id)]);
    expect(outcomes.filter((o) => o === '200')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== '200')).toEqual(['409 session_method_state_error']);
    expect(await analysisJobs(server)).toHaveLength(1);
    expect((await eventTypes(server, id)).filter((t) => t === 'verification.pending')).toHaveLength(1);
  });
});

describe('document with several workflows', () => {
  it('keeps the step to do until every workflow has its document, each submission its own job', async () => {
    const db = server.verity.ctx.db;
    const id = (await findWorkflow(db, 'flow_id_document'))!.raw_id;
    const poa = (await findWorkflow(db, 'flow_proof_of_address'))!.raw_id;
    await insertTemplate(db, {
      name: 'tmpl_kyc2',
      label: 'ID and address',
      methodIds: [3],
      workflowRawIds: [id, poa],
      createdAt: server.clock.now().toISOString(),
    });
    const { link, id: userId } = await createUser(server, { email: 'two@example.com', template_id: 'tmpl_kyc2' });
    const session = client(server);
    await session.start(local(server, link));
    await giveConsent(session);
    const types = async () => {
      const m = (await session.session()).methods[0]!;
      return m.key === 'document_id' ? m.needs.document_types.map((t) => t.key) : [];
    };
    expect(await types()).toEqual(['passport', 'id_card', 'driving_licence', 'utility_bill', 'bank_statement']);

    const passport = await session.uploadDocument({ document_type: 'passport', side: 'front', source: 'upload' }, new Blob([await jpegImage()]), 'p.jpg');
    const first = await session.submitDocument({ document_type: 'passport', front_upload_id: passport.upload_id });
    expect(first.method.status).toBe('assigned');
    expect(first.state).toBe('in_progress');
    expect(await types()).toEqual(['utility_bill', 'bank_statement']);
    expect((await server.api(`/api/users/${userId}`)).body.data.verifications[0].status.value).toBe(1);

    const bill = await session.uploadDocument({ document_type: 'utility_bill', side: 'front', source: 'upload' }, new Blob([await pngImage()]), 'bill.png');
    const second = await session.submitDocument({ document_type: 'utility_bill', front_upload_id: bill.upload_id });
    expect(second.method.status).toBe('processing');
    expect(second.state).toBe('ready_to_complete');
    const jobs = await analysisJobs(server);
    expect(jobs.map((j) => (j.kind === 'document' ? [j.documentType, j.workflowRawId] : null))).toEqual([
      ['passport', id],
      ['utility_bill', poa],
    ]);
  });
});
