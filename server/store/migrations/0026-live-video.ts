import type { Kysely } from 'kysely';

/**
 * Live Video (issue 22): one row per user waiting for an agent or in a call with one. The queue is
 * these rows, oldest first, readable by every process of a scaled-out Verity; a pick is one
 * conditional update, so two agents picking the same user at once get one call between them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('live_video_calls')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('user_conn', 'text', (c) => c.notNull())
    .addColumn('agent_conn', 'text')
    .addColumn('agent_admin_id', 'integer')
    .addColumn('queued_at', 'text', (c) => c.notNull())
    .addColumn('call_started_at', 'text')
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('live_video_calls_queue').on('live_video_calls').columns(['state', 'queued_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('live_video_calls').execute();
}
