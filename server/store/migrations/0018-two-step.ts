import type { Kysely } from 'kysely';

/**
 * Tables of the Two-Step Authentication method (methods/two_step): the user's second factor
 * (an authenticator secret, sealed under its own label, or a phone for SMS codes), pending until a
 * first code confirms it; and the recovery codes issued with an authenticator, stored only as
 * keyed hashes. SMS codes themselves live in `verification_codes` under the key `two_step`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('two_step_factors')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('factor', 'text', (c) => c.notNull())
    .addColumn('sealed_secret', 'text')
    .addColumn('phone', 'text')
    .addColumn('country_code', 'integer')
    .addColumn('enabled_at', 'text')
    .addColumn('pending_expires_at', 'text')
    .addColumn('last_counter', 'integer')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('two_step_recovery_codes')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addPrimaryKeyConstraint('two_step_recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('two_step_recovery_codes').execute();
  await db.schema.dropTable('two_step_factors').execute();
}
