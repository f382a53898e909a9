import type { Kysely } from 'kysely';

/**
 * Two indexes on `users` that no statement reads any more, each one more B-tree that every create
 * and every change of e-mail or status writes: e-mail is looked up and sorted without regard to
 * case (`users_email_sort_idx`, migration 0013), and status is filtered by `lower(status)`
 * (`users_status_lower_idx`, 0006), which the statistics' counts now use too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_email_idx').execute();
  await db.schema.dropIndex('users_status_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('users_email_idx').on('users').column('email').execute();
  await db.schema.createIndex('users_status_idx').on('users').column('status').execute();
}
