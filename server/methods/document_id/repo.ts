import type { WorkflowCandidate } from '../../domain/document-rules.js';
import type { Executor } from '../../store/database.js';

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
