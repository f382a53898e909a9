import { randomBytes } from 'node:crypto';
import {
  CaptureQualityReport,
  DOCUMENT_MEDIA_TYPES,
  type DocumentSubmitRequest,
  type DocumentTypeOption,
  type DocumentUploadFields,
  type DocumentUploadResponse,
} from '../../../src/api/contract.js';
import { DOCUMENT_METHOD_ID, VerificationStatus } from '../../domain/catalogue.js';
import { workflowForDocument } from '../../domain/document-rules.js';
import { moveDocumentWorkflow, moveVerification } from '../../services/verifications.js';
import { ANALYSIS_QUEUE, type DocumentAnalysisJob } from '../../domain/analysis-jobs.js';
import { sessionErrors } from '../../errors.js';
import { isOpen } from '../../session/status.js';
import { lockVerification } from '../../session/verification-repo.js';
import { insertUpload, uploadsOf, type SessionUpload } from '../../session/uploads-repo.js';
import type { Executor } from '../../store/database.js';
import type { UserRow } from '../../store/schema.js';
import { workflowsForUser } from '../../store/repos/users-repo.js';
import type { MethodResult, SessionKit } from '../method.js';
import { acceptSessionUpload, parseJsonField } from '../uploads.js';
import { documentTypesByWorkflow, workflowCandidates } from './repo.js';
import { documentTypeOption } from './rules.js';

/** Document types the user may present: those of their assigned, not yet done workflows (all when none is open). */
export async function documentTypesFor(ex: Executor, userId: number): Promise<DocumentTypeOption[]> {
  const workflows = await workflowsForUser(ex, userId);
  const typesOf = await documentTypesByWorkflow(ex);
  const open = workflows.filter((w) => isOpen(w.status) || w.status === VerificationStatus.rejected);
  const chosen = open.length ? open : workflows;
  const keys = new Set<string>();
  for (const w of chosen) for (const t of typesOf.get(w.workflow_raw_id) ?? []) keys.add(t);
  return [...keys].map(documentTypeOption);
}

export async function uploadDocument(kit: SessionKit, user: UserRow, fields: DocumentUploadFields, bytes: Buffer): Promise<DocumentUploadResponse> {
  const { ctx } = kit;
  await kit.requireOpen(user, 'document_id');
  const types = await documentTypesFor(ctx.db, user.id);
  const type = types.find((t) => t.key === fields.document_type);
  if (!type) throw sessionErrors.validation({ document_type: ['This document type is not accepted here.'] });
  if (fields.side === 'back' && type.sides === 1) throw sessionErrors.validation({ side: ['This document has one side.'] });
  const quality = parseJsonField(CaptureQualityReport, fields.quality, 'quality');
  const mediaType = await acceptSessionUpload(bytes, DOCUMENT_MEDIA_TYPES);
  const id = `upl_${randomBytes(12).toString('base64url')}`;
  const blobKey = `users/${user.id}/session/${id.replace(/[^A-Za-z0-9_-]/g, '')}`;
  await ctx.blobs.put(blobKey, bytes, mediaType);
  await insertUpload(ctx.db, {
    id,
    user_id: user.id,
    method_key: 'document_id',
    document_type: type.key,
    side: fields.side,
    challenge_id: null,
    step_index: null,
    step: null,
    blob_key: blobKey,
    media_type: mediaType,
    size: bytes.length,
    meta: JSON.stringify({ source: fields.source, quality }),
    created_at: ctx.clock.now().toISOString(),
  });
  return { upload_id: id, document_type: type.key, side: fields.side, media_type: mediaType, size: bytes.length };
}

function analysisImage(u: SessionUpload): DocumentAnalysisJob['front'] {
  const meta = JSON.parse(u.meta) as { source?: 'camera' | 'upload'; quality?: unknown };
  return { uploadId: u.id, blobKey: u.blob_key, mediaType: u.media_type, size: u.size, source: meta.source ?? 'upload', quality: meta.quality ?? null };
}

/** Submits reviewed uploads: the document goes to `processing` and an analysis job is enqueued with it. */
export async function submitDocument(kit: SessionKit, user: UserRow, body: DocumentSubmitRequest): Promise<MethodResult> {
  const { ctx } = kit;
  await kit.requireOpen(user, 'document_id');
  const option = (await documentTypesFor(ctx.db, user.id)).find((t) => t.key === body.document_type);
  if (!option) throw sessionErrors.validation({ document_type: ['This document type is not accepted here.'] });
  const uploads = await uploadsOf(ctx.db, user.id, 'document_id');
  const find = (id: string | undefined, side: 'front' | 'back') => uploads.find((u) => u.id === id && u.side === side && u.document_type === option.key);
  const front = find(body.front_upload_id, 'front');
  const back = body.back_upload_id !== undefined ? find(body.back_upload_id, 'back') : undefined;
  const errs: Record<string, string[]> = {};
  if (!front) errs.front_upload_id = ['Unknown upload for this document type and side.'];
  if (option.sides === 2 && !back)
    errs.back_upload_id = [body.back_upload_id ? 'Unknown upload for this document type and side.' : 'This document needs its back too.'];
  if (option.sides === 1 && body.back_upload_id !== undefined) errs.back_upload_id = ['This document has one side.'];
  if (Object.keys(errs).length > 0 || !front) throw sessionErrors.validation(errs);
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    // Checked again holding the step (on PostgreSQL, its row lock): of two submits at once, the
    // second sees what the first did and is refused as it would be after it, never queued twice.
    await lockVerification(trx, user.id, DOCUMENT_METHOD_ID);
    await kit.requireOpen(user, 'document_id', trx);
    if (!(await documentTypesFor(trx, user.id)).some((t) => t.key === option.key)) {
      throw sessionErrors.validation({ document_type: ['This document type is not accepted here.'] });
    }
    const workflow = workflowForDocument(await workflowCandidates(trx, user.id), { documentType: option.key });
    if (workflow !== null) await moveDocumentWorkflow(trx, ctx.clock, user.id, workflow, VerificationStatus.processing, null);
    else await moveVerification(trx, ctx.clock, user.id, DOCUMENT_METHOD_ID, VerificationStatus.processing);
    const job: DocumentAnalysisJob = {
      kind: 'document',
      userId: user.id,
      methodId: DOCUMENT_METHOD_ID,
      workflowRawId: workflow,
      documentType: option.key,
      front: analysisImage(front),
      back: back ? analysisImage(back) : null,
      submittedAt: now.toISOString(),
    };
    await ctx.queue.enqueue(ANALYSIS_QUEUE, job, { maxAttempts: 5 }, trx);
  });
  kit.changed(user.id);
  return kit.result(user, 'document_id');
}
