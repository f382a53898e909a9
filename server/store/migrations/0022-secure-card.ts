import type { Kysely } from 'kysely';
import { withSerialId } from './helpers.js';

/**
 * Secure Card (issue 22): each payment card submitted and its outcome. The card number is never
 * stored: the device masks it and reports only its last four digits, brand, length and Luhn result.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withSerialId(db, db.schema.createTable('secure_card_checks'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('upload_id', 'text')
    .addColumn('last4', 'text')
    .addColumn('brand', 'text')
    .addColumn('pan_length', 'integer')
    .addColumn('expiry_month', 'integer')
    .addColumn('expiry_year', 'integer')
    .addColumn('luhn_valid', 'integer', (c) => c.notNull())
    .addColumn('name_match', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('secure_card_checks_user').on('secure_card_checks').columns(['user_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('secure_card_checks').execute();
}
