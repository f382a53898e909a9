import { deleteNotesOf } from '../admin/review-notes-repo.js';
import { deleteDuplicateDataOf } from '../duplicates/duplicates-repo.js';
import { methodDeletionHooks } from '../methods/registry.js';
import { deleteSessionData } from '../session/user-data-repo.js';
import type { Executor } from '../store/database.js';
import { deleteUserDeliveries } from '../webhooks/log.js';

/** Deletes one kind of a user's rows, inside the transaction that deletes the user. */
export type UserDeletionHook = (trx: Executor, userId: number) => Promise<void>;

/**
 * Everything that keeps rows of a user besides the users tables, in one list: the session core,
 * each verification method, the webhook delivery log (spec 4.7), reviewers' case notes and the
 * duplicate-detection marks and flags (both sides of a pair). A module with rows of its
 * own adds its hook here (a method adds it to its `ServerMethod`).
 */
export function userDeletionHooks(): UserDeletionHook[] {
  return [deleteSessionData, ...methodDeletionHooks(), deleteUserDeliveries, deleteNotesOf, deleteDuplicateDataOf];
}
