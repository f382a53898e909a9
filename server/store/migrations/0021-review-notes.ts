import type { Kysely } from 'kysely';
import { withSerialId } from './helpers.js';

/**
 * Reviewers' notes on a user's case (issue 23): who wrote what and when. Free text about a person,
 * so the rows go with the user (a deletion hook, and the foreign key where enforced).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withSerialId(db, db.schema.createTable('review_notes'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('admin_id', 'integer')
    .addColumn('admin_email', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('review_notes_user').on('review_notes').columns(['user_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('review_notes').execute();
}
