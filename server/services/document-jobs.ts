import type { AppContext } from '../context.js';
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
