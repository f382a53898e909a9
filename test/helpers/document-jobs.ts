import type { Db } from '../../server/store/database.js';

/**
 * A session document job as the analysis leaves it, written straight to the table: `content` is
 * the spec 2.7 `document_data.content`; the image, if any, is the caller's to store at `blobKey`.
 */
export async function insertAnalysedDocumentJob(
  db: Db,
  job: { userId: number; docId: string; content: Record<string, unknown>; size: number; now: Date },
): Promise<{ blobKey: string }> {
  const blobKey = `users/${job.userId}/session/${job.docId}.jpg`;
  await db
    .insertInto('document_jobs')
    .values({
      doc_id: job.docId,
      user_id: job.userId,
      template_id: 1,
      status: 'Success',
      reason: null,
      original_name: 'front',
      media_type: 'image/jpeg',
      size: job.size,
      blob_key: blobKey,
      document_data: JSON.stringify({ id: 1, name: 'document.jpg', status: 4, content: job.content }),
      portrait_embedding: null,
      source: 'session',
      created_at: job.now.toISOString(),
      completed_at: job.now.toISOString(),
    })
    .execute();
  return { blobKey };
}

/**
 * A document portrait on file for the user, as a document analysis leaves it: its descriptor
 * and, since migration 0033, the portrait's quality (`null` for one stored before).
 */
export async function insertPortraitJob(
  db: Db,
  job: { userId: number; docId: string; embedding: number[]; quality?: string | null; at: string },
): Promise<void> {
  await db
    .insertInto('document_jobs')
    .values({
      doc_id: job.docId,
      user_id: job.userId,
      template_id: 0,
      status: 'Success',
      reason: null,
      original_name: 'passport-front',
      media_type: 'image/jpeg',
      size: 1,
      blob_key: `users/${job.userId}/session/none-${job.docId}`,
      document_data: null,
      portrait_embedding: JSON.stringify(job.embedding),
      portrait_quality: job.quality ?? null,
      source: 'session',
      created_at: job.at,
      completed_at: job.at,
    })
    .execute();
}
