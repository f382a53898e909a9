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
