import { VerificationStatus } from '../../server/domain/catalogue.js';
import { ANALYSIS_QUEUE, type DocumentAnalysisJob, type FaceAnalysisJob } from '../../server/domain/analysis-jobs.js';
import { markDocumentProcessing } from '../../server/services/document-jobs.js';
import { moveVerification } from '../../server/services/verifications.js';
import { sdb } from '../../server/session/tables.js';
import { licenceBack, licenceFront, photograph } from '../fixtures/documents.js';
import type { IDENTITIES } from '../fixtures/identities.js';
import type { TestServer } from './server.js';

/** An upload as the session API stores it: the blob in the user's session folder, and its row. */
export async function storeUpload(server: TestServer, userId: number, name: string, bytes: Buffer, methodKey: string) {
  const uploadId = `upl_${userId}_${name}`;
  const blobKey = `users/${userId}/session/${uploadId}`;
  await server.verity.ctx.blobs.put(blobKey, bytes, 'image/jpeg');
  await sdb(server.verity.ctx.db)
    .insertInto('session_uploads')
    .values({
      id: uploadId,
      user_id: userId,
      method_key: methodKey,
      document_type: null,
      side: null,
      challenge_id: null,
      step_index: null,
      step: null,
      blob_key: blobKey,
      media_type: 'image/jpeg',
      size: bytes.length,
      meta: '{}',
      created_at: server.clock.now().toISOString(),
    })
    .execute();
  return { uploadId, blobKey, mediaType: 'image/jpeg', size: bytes.length };
}

/**
 * Enqueues a photographed licence (front at `angle` degrees, back half a degree more) as the
 * hosted page does; the caller waits for the queue.
 */
export async function enqueueLicence(server: TestServer, userId: number, identity: (typeof IDENTITIES)[number], angle: number): Promise<void> {
  const { ctx } = server.verity;
  const front = await storeUpload(server, userId, 'front', await photograph(await licenceFront(identity), { angle }), 'document_id');
  const back = await storeUpload(server, userId, 'back', await photograph(await licenceBack(identity), { angle: angle + 0.5 }), 'document_id');
  const job: DocumentAnalysisJob = {
    kind: 'document',
    userId,
    methodId: 3,
    workflowRawId: null,
    documentType: 'driving_licence',
    front: { ...front, source: 'upload', quality: null },
    back: { ...back, source: 'upload', quality: null },
    submittedAt: ctx.clock.now().toISOString(),
  };
  await ctx.db.transaction().execute(async (trx) => {
    await markDocumentProcessing(trx, ctx.clock, userId);
    await ctx.queue.enqueue(ANALYSIS_QUEUE, job, {}, trx);
  });
}

/** Submits a one-frame selfie (the straight look) as the hosted page does, and waits for the queue. */
export async function submitSelfie(server: TestServer, userId: number, selfie: Buffer): Promise<void> {
  const { ctx } = server.verity;
  const frame = await storeUpload(server, userId, `selfie-${Math.random().toString(36).slice(2)}`, selfie, 'selfie');
  const job: FaceAnalysisJob = {
    kind: 'face',
    userId,
    methodId: 22,
    methodKey: 'selfie',
    challengeId: `chl_${userId}`,
    steps: ['look_straight'],
    frames: [
      {
        ...frame,
        stepIndex: 0,
        step: 'look_straight',
        evidence: { box: { x: 0.2, y: 0.2, width: 0.5, height: 0.5 }, keypoints: [], score: 0.9, yaw: 0, t: 10 },
      },
    ],
    submittedAt: ctx.clock.now().toISOString(),
  };
  await ctx.db.transaction().execute(async (trx) => {
    await moveVerification(trx, ctx.clock, userId, 22, VerificationStatus.processing);
    await ctx.queue.enqueue(ANALYSIS_QUEUE, job, {}, trx);
  });
  await ctx.queue.whenIdle();
}
