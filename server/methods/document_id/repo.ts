import type { Executor } from '../../store/database.js';

/** The document types each workflow accepts, by workflow raw id. */
export async function documentTypesByWorkflow(ex: Executor): Promise<Map<number, string[]>> {
  const rows = await ex.selectFrom('workflows').select(['raw_id', 'document_types']).execute();
  return new Map(rows.map((r) => [r.raw_id, JSON.parse(r.document_types) as string[]]));
}
