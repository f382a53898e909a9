import { sql, type Kysely } from 'kysely';

/**
 * Removing Document / ID used to keep the user's workflows that were not at `assigned` (a reset
 * one, say), left with no method to belong to. Removal now takes them all (verifications routes),
 * and such rows can no longer be moved; this deletes the ones earlier removals left behind.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from user_workflows where not exists (
    select 1 from user_verifications v where v.user_id = user_workflows.user_id and v.method_id = 3
  )`.execute(db);
}

export async function down(): Promise<void> {
  // Deleted rows had no method to belong to; there is nothing to restore.
}
