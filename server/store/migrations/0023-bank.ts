import type { Kysely } from 'kysely';
import { withSerialId } from './helpers.js';

/**
 * Tables of the Bank method (methods/bank, issue 22): the account a user's micro-deposits go to
 * (only its last four characters and a keyed hash of the whole number; the deposits' amounts
 * only as a keyed hash), and the payouts an operator makes by hand under the default payout
 * provider (the instruction sealed under its own label until it is marked paid).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bank_accounts')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('account_hash', 'text', (c) => c.notNull())
    .addColumn('holder_match', 'text')
    .addColumn('name_checked_by', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('amounts_hash', 'text', (c) => c.notNull())
    .addColumn('round', 'integer', (c) => c.notNull())
    .addColumn('first_round', 'integer', (c) => c.notNull())
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('confirmed_at', 'text')
    .execute();

  await withSerialId(db, db.schema.createTable('bank_payouts'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('round', 'integer', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('last4', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('sealed_instruction', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('paid_at', 'text')
    .addColumn('paid_by', 'text')
    .addUniqueConstraint('bank_payouts_round_unique', ['user_id', 'round'])
    .execute();
  await db.schema.createIndex('bank_payouts_status_idx').on('bank_payouts').columns(['status', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bank_payouts').execute();
  await db.schema.dropTable('bank_accounts').execute();
}
