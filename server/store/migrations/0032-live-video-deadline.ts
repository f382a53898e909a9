import type { Kysely } from 'kysely';

/**
 * Live Video's call length limit (issue 22): the deadline of a call in progress, written when the
 * agent takes the call, so any process (the call's two sockets may sit on different ones) can end
 * it on time, even when the process that started it has gone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('live_video_calls').addColumn('call_ends_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('live_video_calls').dropColumn('call_ends_at').execute();
}
