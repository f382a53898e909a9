import { sql, type Kysely } from 'kysely';

/**
 * The stuck-delivery sweeper (webhooks/sweeper.ts) looks for pending deliveries whose attempt is
 * long overdue. A partial index over the pending ones only stays small (a delivery leaves it once
 * settled) where an index over 90 days of log would not; SQLite and PostgreSQL both have them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_pending_idx')
    .on('webhook_deliveries')
    .column('next_attempt_at')
    .where(sql.ref('state'), '=', 'pending')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_pending_idx').execute();
}
