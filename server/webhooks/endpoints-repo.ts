import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../store/database.js';
import type { EndpointRow, WebhookEndpointTable } from './schema.js';

export async function insertEndpoint(ex: Executor, row: Insertable<WebhookEndpointTable>): Promise<EndpointRow> {
  return ex.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * Changes an endpoint's columns; undefined when there is no such endpoint, or, with
 * `expectedSecret`, when its secret is no longer that one (another rotation came first).
 */
export async function patchEndpoint(
  ex: Executor,
  id: number,
  patch: Updateable<WebhookEndpointTable>,
  expectedSecret?: string,
): Promise<EndpointRow | undefined> {
  let q = ex.updateTable('webhook_endpoints').set(patch).where('id', '=', id);
  if (expectedSecret !== undefined) q = q.where('secret', '=', expectedSecret);
  return q.returningAll().executeTakeFirst();
}

export async function findEndpoint(ex: Executor, id: number): Promise<EndpointRow | undefined> {
  return ex.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listEndpoints(ex: Executor): Promise<EndpointRow[]> {
  return ex.selectFrom('webhook_endpoints').selectAll().orderBy('id').execute();
}

export async function deleteEndpoint(ex: Executor, id: number): Promise<boolean> {
  const r = await ex.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function endpointsByIds(ex: Executor, ids: readonly number[]): Promise<EndpointRow[]> {
  return ex.selectFrom('webhook_endpoints').selectAll().where('id', 'in', ids).execute();
}

export function enabledEndpoints(ex: Executor): Promise<EndpointRow[]> {
  return ex.selectFrom('webhook_endpoints').selectAll().where('enabled', '=', 1).execute();
}
