import type { AppContext } from '../context.js';
import type { DocumentAnalysis, LivenessChallenge, SelfieResult } from '../analysis/index.js';
import type { ChallengeStep } from '../../src/api/contract.js';
import { DOCUMENT_METHOD_ID, VerificationStatus, type VerificationStatusValue } from '../domain/catalogue.js';
import { documentDecision } from '../domain/document-rules.js';
import { checkRequirements, documentRequirementsOf, statusWithRequirements, type RequirementCheck } from '../domain/document-requirements.js';
import { ANALYSIS_QUEUE, type AnalysisJob, type DocumentAnalysisJob, type FaceAnalysisJob } from '../domain/analysis-jobs.js';
import { PermanentFailure } from '../queue/queue.js';
import { timeAnalysis } from '../metrics/metrics.js';
import type { DocumentJobRow, UserRow } from '../store/schema.js';
import { findUserById } from '../store/repos/users-repo.js';
import { DOCUMENT_JOB_KIND, DocumentJobStatus, moveDocument, type DocumentJobPayload } from './document-jobs.js';
import { moveVerification } from './verifications.js';
import { notifyProgress } from '../session/progress.js';
import { repointUploads } from '../session/uploads-repo.js';
import { deleteDocumentJob, findDocumentJob, finishProcessingDocumentJob, insertDocumentJob, updateDocumentJob } from '../store/repos/document-jobs-repo.js';
import { runVideo } from '../methods/video/analysis-job.js';
import { stillProcessing, type AnalysisEngine } from './analysis-engine.js';
import { faceReference } from './face-reference.js';
import { detectDuplicates, documentIdentity, sentToReviewByDuplicates, statusWithDuplicates, type DocumentIdentity } from '../duplicates/detect.js';

/** The result's reason when only a duplicate sent a document to review. */
const DUPLICATE_REASON = 'Possible duplicate: the same document or face is on another user of the account.';

/** The document numbers and portrait descriptors of analysed sides, for duplicate detection. */
function documentEvidence(results: readonly DocumentAnalysis[]): { documents: DocumentIdentity[]; faces: number[][] } {
  return {
    documents: results.map((r) => documentIdentity(r.content)).filter((d): d is DocumentIdentity => d !== null),
    faces: results.map((r) => r.portrait_embedding).filter((e): e is number[] => e !== null),
  };
}

export type AnalysisQueueJob = AnalysisJob | DocumentJobPayload;

const STEP_TO_CHALLENGE: Record<ChallengeStep, LivenessChallenge> = {
  look_straight: 'neutral',
  turn_left: 'turn_left',
  turn_right: 'turn_right',
  come_closer: 'closer',
  flash: 'flash',
  blink: 'blink',
};

/** ISO 8601 UTC with microseconds, as spec 2.7 shows `created_at`. */
function isoMicro(iso: string): string {
  return iso.replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** The status of a face analysis; on the last attempt a failed capture goes to a reviewer instead. */
function selfieStatus(result: SelfieResult, reviewOnFailure: boolean): VerificationStatusValue {
  if (result.decision === 'complete') return VerificationStatus.complete;
  if (result.decision === 'review' || reviewOnFailure) return VerificationStatus.complete_in_review;
  return VerificationStatus.rejected;
}

/** Runs one analysed image and records it as a document job row (API or session). */
async function analyseAndStore(
  ctx: AppContext,
  engine: AnalysisEngine,
  user: UserRow,
  job: Pick<DocumentJobRow, 'id' | 'doc_id' | 'blob_key' | 'original_name' | 'created_at'>,
): Promise<{ result: DocumentAnalysis; decision: ReturnType<typeof documentDecision> }> {
  const keptKey = derivativeKey(job);
  // A retry after the original was already replaced reads the derivative (same pixels, no EXIF).
  const blob = (await ctx.blobs.get(job.blob_key)) ?? (keptKey !== job.blob_key ? await ctx.blobs.get(keptKey) : undefined);
  if (!blob) throw new PermanentFailure('The uploaded image is no longer stored.');
  const result = await timeAnalysis('document', () =>
    engine.analyseDocument(
      { bytes: blob.bytes, originalName: job.original_name },
      {
        receivedAt: new Date(job.created_at),
        user: { firstName: user.first_name, lastName: user.last_name, address: user.address },
      },
    ),
  );
  const decision = documentDecision(result);
  // Keep only the metadata-free derivative; the original upload (with its EXIF) goes once every
  // row that named it (the job, and the session upload it came from) names the derivative.
  let blobKey = job.blob_key;
  if (result.derivative) {
    blobKey = keptKey;
    await ctx.blobs.put(blobKey, result.derivative, result.derivative_type);
    await repointUploads(ctx.db, job.blob_key, { blob_key: blobKey, media_type: result.derivative_type, size: result.derivative.length });
  }
  const documentData = result.content
    ? {
        id: job.id,
        name: 'document.jpg',
        status: decision.status,
        created_at: isoMicro(job.created_at),
        content: result.content,
      }
    : null;
  await updateDocumentJob(ctx.db, job.id, {
    status: result.status === 'Success' ? DocumentJobStatus.success : DocumentJobStatus.failed,
    reason: result.reason,
    blob_key: blobKey,
    document_data: documentData ? JSON.stringify(documentData) : null,
    portrait_embedding: result.portrait_embedding ? JSON.stringify(result.portrait_embedding) : null,
    portrait_quality: result.portrait_embedding && result.portrait_quality ? JSON.stringify(result.portrait_quality) : null,
    completed_at: ctx.clock.now().toISOString(),
  });
  if (blobKey !== job.blob_key) await ctx.blobs.delete(job.blob_key);
  return { result, decision };
}

/**
 * Where a document job keeps its metadata-free image: beside the upload, named by the job. Front
 * and back of a session document sit in one folder, so a fixed name would let the back's image
 * replace the front's.
 */
function derivativeKey(job: Pick<DocumentJobRow, 'doc_id' | 'blob_key'>): string {
  return job.blob_key.replace(/\/[^/]+$/, `/${job.doc_id}.jpg`);
}

/**
 * The customer's requirements of the document (`custom_verify_data.document`) checked against the
 * sides the analysis read, and the status once they count; `attributes.requirements` names each
 * (absent when the user has none, or no side could be read: that rejects already).
 */
function withRequirements(
  ctx: AppContext,
  user: UserRow,
  status: VerificationStatusValue,
  results: readonly DocumentAnalysis[],
): { status: VerificationStatusValue; attributes: { requirements?: RequirementCheck[] } } {
  const req = documentRequirementsOf(user.custom_verify_data);
  const sides = results.filter((r) => r.status === 'Success' && r.content).map((r) => r.content!);
  if (!req || sides.length === 0) return { status, attributes: {} };
  const checks = checkRequirements(req, sides, ctx.clock.now());
  return { status: statusWithRequirements(status, checks, req.on_failure), attributes: { requirements: checks } };
}

async function runDocumentJob(ctx: AppContext, engine: AnalysisEngine, payload: DocumentJobPayload): Promise<void> {
  const job = await findDocumentJob(ctx.db, payload.docId);
  // Gone (user deleted) or already finished (a retry after a crash): nothing to do.
  if (!job || job.status !== DocumentJobStatus.processing) return;
  const user = await findUserById(ctx.db, job.user_id);
  if (!user) return;
  const { result, decision } = await analyseAndStore(ctx, engine, user, job);
  const required = withRequirements(ctx, user, decision.status, [result]);
  const duplicates = await detectDuplicates(ctx, user.id, { methodId: DOCUMENT_METHOD_ID, source: job.doc_id, ...documentEvidence([result]) });
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await stillProcessing(trx, user.id, DOCUMENT_METHOD_ID))) return;
    await moveDocument(trx, ctx.clock, user.id, statusWithDuplicates(required.status, duplicates), {
      remarks: result.reason ?? (sentToReviewByDuplicates(required.status, duplicates) ? DUPLICATE_REASON : null),
      attributes: {
        verify_documents: [{ doc_id: job.doc_id, document_status: result.status, reason: result.reason, flags: decision.flags }],
        ...required.attributes,
      },
    });
  });
  ctx.signals.emit('outbox');
  // Open progress streams (on any process, through the bus) show the result at once.
  notifyProgress(user.id);
}

async function runSessionDocument(ctx: AppContext, engine: AnalysisEngine, job: DocumentAnalysisJob): Promise<void> {
  const user = await findUserById(ctx.db, job.userId);
  if (!user) return;
  const sides = [{ side: 'front' as const, image: job.front }, ...(job.back ? [{ side: 'back' as const, image: job.back }] : [])];
  const outcomes: { side: 'front' | 'back'; docId: string; result: DocumentAnalysis; decision: ReturnType<typeof documentDecision> }[] = [];
  for (const { side, image } of sides) {
    const docId = `doc_${image.uploadId}`;
    // Idempotent across retries: one row per upload.
    await deleteDocumentJob(ctx.db, docId);
    const row = await insertDocumentJob(ctx.db, {
      doc_id: docId,
      user_id: user.id,
      template_id: user.template_id ?? 0,
      status: DocumentJobStatus.processing,
      reason: null,
      original_name: `${job.documentType}-${side}`,
      media_type: image.mediaType,
      size: image.size,
      blob_key: image.blobKey,
      document_data: null,
      portrait_embedding: null,
      source: 'session',
      created_at: job.submittedAt,
      completed_at: null,
    });
    outcomes.push({ side, docId, ...(await analyseAndStore(ctx, engine, user, row)) });
  }
  const worst = outcomes.some((o) => o.decision.status === VerificationStatus.rejected)
    ? VerificationStatus.rejected
    : outcomes.every((o) => o.decision.status === VerificationStatus.complete)
      ? VerificationStatus.complete
      : // Two sides: one carrying the machine-readable zone is enough to authenticate.
        outcomes.some((o) => o.decision.status === VerificationStatus.complete) &&
          outcomes.every((o) => o.decision.flags.every((f) => f === 'no_machine_readable_data'))
        ? VerificationStatus.complete
        : VerificationStatus.complete_in_review;
  const failed = outcomes.find((o) => o.result.status === 'Failed');
  const required = withRequirements(
    ctx,
    user,
    worst,
    outcomes.map((o) => o.result),
  );
  // One capture (front and back), named by its first side: a retry replaces its own marks.
  const duplicates = await detectDuplicates(ctx, user.id, {
    methodId: DOCUMENT_METHOD_ID,
    source: outcomes[0]!.docId,
    ...documentEvidence(outcomes.map((o) => o.result)),
  });
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await stillProcessing(trx, user.id, DOCUMENT_METHOD_ID))) return;
    await moveDocument(trx, ctx.clock, user.id, statusWithDuplicates(required.status, duplicates), {
      workflowRawId: job.workflowRawId,
      documentType: job.documentType,
      remarks: failed?.result.reason ?? (sentToReviewByDuplicates(required.status, duplicates) ? DUPLICATE_REASON : null),
      attributes: {
        verify_documents: outcomes.map((o) => ({
          doc_id: o.docId,
          side: o.side,
          document_type: job.documentType,
          document_status: o.result.status,
          reason: o.result.reason,
          flags: o.decision.flags,
        })),
        ...required.attributes,
      },
    });
  });
  ctx.signals.emit('outbox');
  // Open progress streams (on any process, through the bus) show the result at once.
  notifyProgress(user.id);
}

async function runFace(ctx: AppContext, engine: AnalysisEngine, job: FaceAnalysisJob): Promise<void> {
  const user = await findUserById(ctx.db, job.userId);
  if (!user || !(await stillProcessing(ctx.db, user.id, job.methodId))) return;
  const frames: { bytes: Buffer; challenge: LivenessChallenge; step: number }[] = [];
  for (const f of job.frames) {
    const blob = await ctx.blobs.get(f.blobKey);
    if (!blob) throw new PermanentFailure('A captured frame is no longer stored.');
    frames.push({ bytes: blob.bytes, challenge: STEP_TO_CHALLENGE[f.step], step: f.stepIndex });
  }
  // The selfie is the held pose of the straight look: the last of its frames.
  const neutral = frames.filter((f) => f.challenge === 'neutral').at(-1) ?? frames[0];
  if (!neutral) throw new PermanentFailure('No frame was captured.');
  const reference = await faceReference(ctx.db, user.id);
  const result = await timeAnalysis('face', () =>
    engine.analyseSelfie(
      { selfie: neutral.bytes, frames: frames.length > 1 ? frames : [] },
      {
        ...(reference.embedding ? { referenceEmbedding: reference.embedding } : {}),
        ...(reference.embedding && reference.quality ? { referenceQuality: reference.quality } : {}),
        // ID + selfie (or a re-verification after a document): the face must match a document portrait.
        requireReference: reference.required,
        activeLiveness: job.methodKey === 'liveness',
        ...(job.flashColours ? { flashColours: job.flashColours } : {}),
        requireBlink: job.steps.includes('blink'),
      },
    ),
  );
  if (result.derivative) await ctx.blobs.put(`users/${user.id}/faces/${job.challengeId}.jpg`, result.derivative, 'image/jpeg');
  const duplicates = await detectDuplicates(ctx, user.id, {
    methodId: job.methodId,
    source: job.challengeId,
    documents: [],
    faces: result.embedding ? [result.embedding] : [],
  });
  const status = selfieStatus(result, job.reviewOnFailure === true);
  const reasons = [...result.reasons, ...(sentToReviewByDuplicates(status, duplicates) ? ['POSSIBLE_DUPLICATE'] : [])];
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await stillProcessing(trx, user.id, job.methodId))) return;
    await moveVerification(trx, ctx.clock, user.id, job.methodId, statusWithDuplicates(status, duplicates), {
      remarks: reasons.join(', ') || null,
      attributes: {
        decision: result.decision,
        reasons: result.reasons,
        ...(job.reviewOnFailure ? { last_attempt: true } : {}),
        ...(result.similarity !== undefined ? { similarity: Number(result.similarity.toFixed(3)) } : {}),
        ...(result.selfie_check !== undefined ? { selfie_check: result.selfie_check } : {}),
        ...(result.liveness !== undefined ? { liveness: Number(result.liveness.toFixed(3)) } : {}),
        ...(result.antispoof !== undefined ? { antispoof: Number(result.antispoof.toFixed(3)) } : {}),
        ...(result.flash_correlation !== undefined ? { flash_correlation: Number(result.flash_correlation.toFixed(3)) } : {}),
        challenges: result.challenges,
      },
    });
  });
  ctx.signals.emit('outbox');
  // Open progress streams (on any process, through the bus) show the result at once.
  notifyProgress(user.id);
}

/**
 * Consumes the analysis queue: customer API document jobs (spec 4.13), documents and faces captured
 * on the hosted page. Results move verifications through the shared rules (events, user status).
 */
export function registerAnalysisWorker(ctx: AppContext, engine: AnalysisEngine): void {
  ctx.queue.process<AnalysisQueueJob>(
    ANALYSIS_QUEUE,
    async (job, { attempt, maxAttempts }) => {
      try {
        switch (job.kind) {
          case DOCUMENT_JOB_KIND:
            return await runDocumentJob(ctx, engine, job);
          case 'document':
            return await runSessionDocument(ctx, engine, job);
          case 'face':
            return await runFace(ctx, engine, job);
          case 'video':
            return await runVideo(ctx, engine, job);
        }
      } catch (error: unknown) {
        // The last try of a customer API job: answer `Failed` rather than `Processing` forever.
        // The verification stays `processing` for a reviewer: nothing is decided without analysis.
        if (job.kind === DOCUMENT_JOB_KIND && (attempt >= maxAttempts || error instanceof PermanentFailure)) {
          await failDocumentJob(ctx, job.docId, error instanceof PermanentFailure ? error.message : 'The document could not be analysed.');
        }
        throw error;
      }
    },
    // One job per analysis thread; a 12 MP document takes seconds, so leases are generous.
    { concurrency: 2, leaseMs: 10 * 60_000 },
  );
}

/** After the last attempt, a document job must not stay `Processing` forever. */
export async function failDocumentJob(ctx: AppContext, docId: string, reason: string): Promise<void> {
  await finishProcessingDocumentJob(ctx.db, docId, DocumentJobStatus.processing, {
    status: DocumentJobStatus.failed,
    reason,
    completed_at: ctx.clock.now().toISOString(),
  });
}
