import type { AppContext } from '../context.js';
import type { Clock } from '../clock.js';
import { DOCUMENT_METHOD_ID, VerificationStatus, type VerificationStatusValue } from '../domain/catalogue.js';
import { workflowForDocument } from '../domain/document-rules.js';
import { workflowCandidates } from '../methods/document_id/repo.js';
import type { Executor } from '../store/database.js';
import { findVerificationAttributes, updateVerificationRow } from '../store/repos/verifications-repo.js';
import { moveDocumentWorkflow, moveVerification } from './verifications.js';
import { signedBlobUrl } from '../blobs/signed-url.js';
import type { DocumentJobRow } from '../store/schema.js';

/** Job states of spec 3.3; the in-progress value is `Processing` (architecture.md). */
export const DocumentJobStatus = {
  processing: 'Processing',
  success: 'Success',
  failed: 'Failed',
} as const;

/** The analysis-queue job that runs a customer API document job. */
export const DOCUMENT_JOB_KIND = 'document_job';
export interface DocumentJobPayload {
  kind: typeof DOCUMENT_JOB_KIND;
  docId: string;
}

/** How long the signed image URL in `document_data.content.url` stays valid. */
export const DOCUMENT_URL_TTL_MS = 15 * 60_000;

/** The stored `document_data` with a fresh signed URL of the stored image (spec 2.7 `content.url`). */
export function documentDataView(ctx: AppContext, job: DocumentJobRow): Record<string, unknown> {
  const data = JSON.parse(job.document_data ?? '{}') as { content?: Record<string, unknown> } & Record<string, unknown>;
  const url = signedBlobUrl(ctx.config.baseUrl, ctx.config.secret, job.blob_key, new Date(ctx.clock.now().getTime() + DOCUMENT_URL_TTL_MS));
  return { ...data, content: { url, ...(data.content ?? {}) } };
}

/**
 * Moves the user's Document / ID verification (through its workflow when the user has one), so
 * events and the user status follow the shared rules.
 */
export async function moveDocument(
  trx: Executor,
  clock: Clock,
  userId: number,
  status: VerificationStatusValue,
  options: { workflowRawId?: number | null; documentType?: string | null; remarks?: string | null; attributes?: Record<string, unknown> } = {},
): Promise<void> {
  const workflow = workflowForDocument(await workflowCandidates(trx, userId), {
    preferred: options.workflowRawId ?? null,
    documentType: options.documentType ?? null,
  });
  if (workflow !== null) {
    // Attributes first, so the event the move fires carries them.
    if (options.attributes) await mergeDocumentAttributes(trx, userId, options.attributes);
    // Moves from the analysis and the flow: a workflow it sends to review holds the method in review.
    await moveDocumentWorkflow(trx, clock, userId, workflow, status, options.remarks ?? null, { reviewHolds: true });
  } else {
    await moveVerification(trx, clock, userId, DOCUMENT_METHOD_ID, status, {
      ...(options.attributes ? { attributes: options.attributes } : {}),
      ...(options.remarks !== undefined ? { remarks: options.remarks } : {}),
    });
  }
}

/** A document job was submitted: the Document / ID verification is now `processing`. */
export function markDocumentProcessing(trx: Executor, clock: Clock, userId: number): Promise<void> {
  return moveDocument(trx, clock, userId, VerificationStatus.processing);
}

async function mergeDocumentAttributes(trx: Executor, userId: number, attributes: Record<string, unknown>): Promise<void> {
  const row = await findVerificationAttributes(trx, userId, DOCUMENT_METHOD_ID);
  if (!row) return;
  await updateVerificationRow(trx, userId, DOCUMENT_METHOD_ID, { attributes: JSON.stringify({ ...(JSON.parse(row.attributes) as object), ...attributes }) });
}
