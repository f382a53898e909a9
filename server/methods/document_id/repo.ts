import type { WorkflowCandidate } from '../../domain/document-rules.js';
import type { Insertable } from 'kysely';
import type { Executor } from '../../store/database.js';
import type { DocumentJobRow, DocumentJobTable } from '../../store/schema.js';

/** The document types each workflow accepts, by workflow raw id. */
export async function documentTypesByWorkflow(ex: Executor): Promise<Map<number, string[]>> {
  const rows = await ex.selectFrom('workflows').select(['raw_id', 'document_types']).execute();
  return new Map(rows.map((r) => [r.raw_id, JSON.parse(r.document_types) as string[]]));
}

/** The user's document workflows with the types each accepts, for `workflowForDocument`. */
export async function workflowCandidates(ex: Executor, userId: number): Promise<WorkflowCandidate[]> {
  const rows = await ex
    .selectFrom('user_workflows')
    .innerJoin('workflows', 'workflows.raw_id', 'user_workflows.workflow_raw_id')
    .select(['user_workflows.workflow_raw_id', 'user_workflows.status', 'workflows.document_types'])
    .where('user_workflows.user_id', '=', userId)
    .execute();
  return rows.map((r) => ({ rawId: r.workflow_raw_id, status: r.status, documentTypes: JSON.parse(r.document_types) as string[] }));
}

/** Records a document sent through `POST /api/verify/document` (its analysis job is queued beside it). */
export async function insertDocumentJob(ex: Executor, row: Insertable<DocumentJobTable>): Promise<void> {
  await ex.insertInto('document_jobs').values(row).execute();
}

/** The user's document job with this id, or undefined (another user's id reads as unknown). */
export function findDocumentJob(ex: Executor, docId: string, userId: number): Promise<DocumentJobRow | undefined> {
  return ex.selectFrom('document_jobs').selectAll().where('doc_id', '=', docId).where('user_id', '=', userId).executeTakeFirst();
}

/** Where a document job's stored image is, and what the analysis read from it (for the portrait's box). */
export function findDocumentJobImage(ex: Executor, docId: string): Promise<Pick<DocumentJobRow, 'blob_key' | 'media_type' | 'document_data'> | undefined> {
  return ex.selectFrom('document_jobs').select(['blob_key', 'media_type', 'document_data']).where('doc_id', '=', docId).executeTakeFirst();
}
