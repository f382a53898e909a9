import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../database.js';
import type { DocumentJobRow, DocumentJobTable } from '../schema.js';

export function findDocumentJob(ex: Executor, docId: string): Promise<DocumentJobRow | undefined> {
  return ex.selectFrom('document_jobs').selectAll().where('doc_id', '=', docId).executeTakeFirst();
}

export async function deleteDocumentJob(ex: Executor, docId: string): Promise<void> {
  await ex.deleteFrom('document_jobs').where('doc_id', '=', docId).execute();
}

export function insertDocumentJob(ex: Executor, row: Insertable<DocumentJobTable>): Promise<DocumentJobRow> {
  return ex.insertInto('document_jobs').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateDocumentJob(ex: Executor, id: number, patch: Updateable<DocumentJobTable>): Promise<void> {
  await ex.updateTable('document_jobs').set(patch).where('id', '=', id).execute();
}

/** Sets a job that is still processing to `status`; a finished job keeps its answer. */
export async function finishProcessingDocumentJob(
  ex: Executor,
  docId: string,
  processing: string,
  patch: Pick<Updateable<DocumentJobTable>, 'status' | 'reason' | 'completed_at'>,
): Promise<void> {
  await ex.updateTable('document_jobs').set(patch).where('doc_id', '=', docId).where('status', '=', processing).execute();
}

/** The outcome of each of these document jobs that exists. */
export function documentJobOutcomes(
  ex: Executor,
  docIds: readonly string[],
): Promise<Pick<DocumentJobRow, 'doc_id' | 'status' | 'reason' | 'document_data'>[]> {
  return ex
    .selectFrom('document_jobs')
    .select(['doc_id', 'status', 'reason', 'document_data'])
    .where('doc_id', 'in', [...docIds])
    .execute();
}

/** A user's newest document jobs, at most `limit` (the dashboard's user page lists them). */
export function recentDocumentJobsOf(
  ex: Executor,
  userId: number,
  limit: number,
): Promise<Pick<DocumentJobRow, 'doc_id' | 'status' | 'reason' | 'document_data' | 'source' | 'media_type' | 'created_at' | 'completed_at'>[]> {
  return ex
    .selectFrom('document_jobs')
    .select(['doc_id', 'status', 'reason', 'document_data', 'source', 'media_type', 'created_at', 'completed_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The portrait descriptor and its quality (JSON) of the user's latest document that had one. */
export function latestPortraitEmbedding(
  ex: Executor,
  userId: number,
): Promise<{ portrait_embedding: string | null; portrait_quality: string | null } | undefined> {
  return ex
    .selectFrom('document_jobs')
    .select(['portrait_embedding', 'portrait_quality'])
    .where('user_id', '=', userId)
    .where('portrait_embedding', 'is not', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}
