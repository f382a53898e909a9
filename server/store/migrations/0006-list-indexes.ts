import { sql, type Kysely } from 'kysely';

/**
 * `filter[status]` compares `lower(status)` (case-insensitive, spec 4.17), which a plain index on
 * `status` cannot serve; an index on the expression can, on SQLite and PostgreSQL alike.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('users_status_lower_idx')
    .on('users')
    .expression(sql`lower(status)`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_status_lower_idx').execute();
}
