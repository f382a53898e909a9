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
