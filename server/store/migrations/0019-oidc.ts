import type { Kysely } from 'kysely';
import { withSerialId } from './helpers.js';

/**
 * Sign-in with OpenID Connect (issue 21: Social Account and Payment Account): the providers an
 * operator configures (client secrets sealed) and the sign-ins in flight, whose state, begin token
 * and browser binding are stored only as hashes and whose PKCE verifier and nonce are sealed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withSerialId(db, db.schema.createTable('oidc_providers'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_secret_sealed', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await withSerialId(db, db.schema.createTable('oidc_logins'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('method_key', 'text', (c) => c.notNull())
    .addColumn('provider_id', 'integer', (c) => c.notNull())
    .addColumn('state_hash', 'text', (c) => c.notNull().unique())
    .addColumn('begin_hash', 'text', (c) => c.notNull().unique())
    .addColumn('binding_hash', 'text')
    .addColumn('secrets_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('begun_at', 'text')
    .addColumn('finished_at', 'text')
    .addColumn('outcome', 'text')
    .execute();
  await db.schema.createIndex('oidc_logins_user_idx').on('oidc_logins').columns(['user_id', 'method_key']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('oidc_logins').execute();
  await db.schema.dropTable('oidc_providers').execute();
}
