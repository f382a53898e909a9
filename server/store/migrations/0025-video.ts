import type { Kysely } from 'kysely';

/**
 * The Video method's frame fingerprints (methods/video): the SHA-256 of every frame sent for a
 * video challenge, so frames captured for one challenge cannot be sent again for another (a
 * replay). Kept while the user exists; the frames themselves are session uploads, under the
 * retention rules.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('video_frame_hashes')
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('challenge_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('video_frame_hashes_hash').on('video_frame_hashes').column('hash').execute();
  await db.schema.createIndex('video_frame_hashes_user').on('video_frame_hashes').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('video_frame_hashes').execute();
}
