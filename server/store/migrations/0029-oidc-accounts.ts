import type { Kysely } from 'kysely';

/**
 * The provider accounts users proved through Social Account and Payment Account (issue 21): the
 * issuer and a keyed hash of the subject, so the same provider account proven by a second user is
 * found and sent to review. One row per user and step; gone with the user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_accounts')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('method_key', 'text', (c) => c.notNull())
    .addColumn('account_hash', 'text', (c) => c.notNull())
    .addColumn('proven_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('oidc_accounts_pk', ['user_id', 'method_key'])
    .execute();
  await db.schema.createIndex('oidc_accounts_account_idx').on('oidc_accounts').columns(['account_hash']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('oidc_accounts').execute();
}
