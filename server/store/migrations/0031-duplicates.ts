import type { Kysely } from 'kysely';
import { withSerialId } from './helpers.js';

/**
 * Duplicate detection inside the deployment (issue 23). `identity_marks`: what a capture left to
 * compare later ones with, never an image: a keyed digest of a document's (type, issuer, number),
 * or a face descriptor sealed with the server secret and the name of the model that made it.
 * `duplicate_flags`: one row per user and verification for each other user found sharing a mark,
 * so both cases show it. Both go with the user (deletion hook, and the foreign key where enforced).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withSerialId(db, db.schema.createTable('identity_marks'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('method_id', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('digest', 'text')
    .addColumn('model', 'text')
    .addColumn('vector', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('identity_marks_digest').on('identity_marks').columns(['kind', 'digest']).execute();
  await db.schema.createIndex('identity_marks_model').on('identity_marks').columns(['kind', 'model']).execute();
  await db.schema.createIndex('identity_marks_user').on('identity_marks').columns(['user_id', 'source']).execute();

  await withSerialId(db, db.schema.createTable('duplicate_flags'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('method_id', 'integer', (c) => c.notNull())
    .addColumn('other_user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('other_method_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('score', 'double precision')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // Two processes finding the same pair at once (a race of two submissions) write one row each way.
  await db.schema
    .createIndex('duplicate_flags_pair')
    .on('duplicate_flags')
    .columns(['user_id', 'method_id', 'other_user_id', 'other_method_id', 'kind'])
    .unique()
    .execute();
  await db.schema.createIndex('duplicate_flags_other').on('duplicate_flags').column('other_user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('duplicate_flags').execute();
  await db.schema.dropTable('identity_marks').execute();
}
