import type { Kysely } from 'kysely';
import { withSerialId } from './helpers.js';

/**
 * Tables of the end-user side (issue 4): browser sessions started from magic links, one-time codes
 * for the e-mail and SMS steps, per-method progress, uploads waiting for analysis, and cross-device
 * hand-off tokens. Secrets (session tokens, codes, hand-off tokens) are stored only as hashes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withSerialId(db, db.schema.createTable('user_sessions'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('via_handoff', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('user_sessions_user_idx').on('user_sessions').column('user_id').execute();

  await db.schema
    .createTable('verification_codes')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('method_key', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('sent_at', 'text', (c) => c.notNull())
    .addColumn('window_started_at', 'text', (c) => c.notNull())
    .addColumn('sends_in_window', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('verification_codes_pk', ['user_id', 'method_key'])
    .execute();

  await db.schema
    .createTable('method_state')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('method_key', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('method_state_pk', ['user_id', 'method_key'])
    .execute();

  await db.schema
    .createTable('session_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('method_key', 'text', (c) => c.notNull())
    .addColumn('document_type', 'text')
    .addColumn('side', 'text')
    .addColumn('challenge_id', 'text')
    .addColumn('step_index', 'integer')
    .addColumn('step', 'text')
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('meta', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('session_uploads_user_idx').on('session_uploads').columns(['user_id', 'method_key']).execute();

  await db.schema
    .createTable('handoff_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('session_id', 'integer', (c) => c.notNull())
    .addColumn('short_code', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['handoff_tokens', 'session_uploads', 'method_state', 'verification_codes', 'user_sessions']) {
    await db.schema.dropTable(t).execute();
  }
}
