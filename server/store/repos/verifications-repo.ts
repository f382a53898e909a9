import type { Updateable } from 'kysely';
import { VerificationStatus } from '../../domain/catalogue.js';
import type { Executor } from '../database.js';
import type { UserVerificationRow, UserVerificationTable, UserWorkflowTable } from '../schema.js';

/** The status of one verification of a user, if the user has that method. */
export function findVerificationStatus(ex: Executor, userId: number, methodId: number): Promise<{ status: number } | undefined> {
  return ex.selectFrom('user_verifications').select('status').where('user_id', '=', userId).where('method_id', '=', methodId).executeTakeFirst();
}

/** The attributes (JSON) of one verification of a user, if the user has that method. */
export function findVerificationAttributes(ex: Executor, userId: number, methodId: number): Promise<{ attributes: string } | undefined> {
  return ex.selectFrom('user_verifications').select('attributes').where('user_id', '=', userId).where('method_id', '=', methodId).executeTakeFirst();
}

/** The statuses of all the user's verifications. */
export function verificationStatusesOf(ex: Executor, userId: number): Promise<{ status: number }[]> {
  return ex.selectFrom('user_verifications').select('status').where('user_id', '=', userId).execute();
}

export async function updateVerificationRow(ex: Executor, userId: number, methodId: number, patch: Updateable<UserVerificationTable>): Promise<void> {
  await ex.updateTable('user_verifications').set(patch).where('user_id', '=', userId).where('method_id', '=', methodId).execute();
}

export async function deleteVerificationRow(ex: Executor, userId: number, methodId: number): Promise<void> {
  await ex.deleteFrom('user_verifications').where('user_id', '=', userId).where('method_id', '=', methodId).execute();
}

/** Sets one assigned workflow of a user; false when the user does not have it. */
export async function updateUserWorkflow(ex: Executor, userId: number, workflowRawId: number, patch: Updateable<UserWorkflowTable>): Promise<boolean> {
  const result = await ex
    .updateTable('user_workflows')
    .set(patch)
    .where('user_id', '=', userId)
    .where('workflow_raw_id', '=', workflowRawId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Every workflow assigned to the user, with its public id and status. */
export function workflowStatusesOf(ex: Executor, userId: number): Promise<{ public_id: string; raw_id: number; status: number }[]> {
  return ex
    .selectFrom('user_workflows')
    .innerJoin('workflows', 'workflows.raw_id', 'user_workflows.workflow_raw_id')
    .select(['workflows.public_id', 'workflows.raw_id', 'user_workflows.status'])
    .where('user_workflows.user_id', '=', userId)
    .execute();
}

export async function deleteUserWorkflows(ex: Executor, userId: number): Promise<void> {
  await ex.deleteFrom('user_workflows').where('user_id', '=', userId).execute();
}

/** The methods a user has, removed ones left out. */
export async function activeMethodIds(ex: Executor, userId: number): Promise<number[]> {
  const rows = await ex
    .selectFrom('user_verifications')
    .select('method_id')
    .where('user_id', '=', userId)
    .where('status', '!=', VerificationStatus.removed)
    .execute();
  return rows.map((r) => r.method_id);
}

/** Every verification of a user, in the template's order. */
export function verificationsOfUser(ex: Executor, userId: number): Promise<UserVerificationRow[]> {
  return ex.selectFrom('user_verifications').selectAll().where('user_id', '=', userId).orderBy('position').execute();
}

/** Each of a user's verifications with its attributes (JSON), in the template's order. */
export function verificationAttributesOfUser(ex: Executor, userId: number): Promise<{ method_id: number; attributes: string }[]> {
  return ex.selectFrom('user_verifications').select(['method_id', 'attributes']).where('user_id', '=', userId).orderBy('position').execute();
}

/** Each of a user's verifications with its attributes (JSON), in no particular order. */
export function verificationAttributesOf(ex: Executor, userId: number): Promise<{ method_id: number; attributes: string }[]> {
  return ex.selectFrom('user_verifications').select(['method_id', 'attributes']).where('user_id', '=', userId).execute();
}

/** Whether the user has this method (whatever its status). */
export async function hasVerification(ex: Executor, userId: number, methodId: number): Promise<boolean> {
  const row = await ex.selectFrom('user_verifications').select('method_id').where('user_id', '=', userId).where('method_id', '=', methodId).executeTakeFirst();
  return row !== undefined;
}
