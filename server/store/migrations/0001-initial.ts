import { sql, type Kysely } from 'kysely';
import { isPostgres, withSerialId } from './helpers.js';

/** The tables of the customer API, the event outbox and the durable job queue. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withSerialId(db, db.schema.createTable('api_keys'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('rate_per_second', 'integer', (c) => c.notNull())
    .addColumn('rate_per_minute', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();

  await withSerialId(db, db.schema.createTable('admins'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await withSerialId(db, db.schema.createTable('templates'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await withSerialId(db, db.schema.createTable('workflows'), 'raw_id')
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('encoded_id', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('document_types', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('template_methods')
    .addColumn('template_id', 'integer', (c) => c.notNull().references('templates.id').onDelete('cascade'))
    .addColumn('method_id', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('template_methods_pk', ['template_id', 'method_id'])
    .execute();

  await db.schema
    .createTable('template_workflows')
    .addColumn('template_id', 'integer', (c) => c.notNull().references('templates.id').onDelete('cascade'))
    .addColumn('workflow_raw_id', 'integer', (c) => c.notNull().references('workflows.raw_id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('template_workflows_pk', ['template_id', 'workflow_raw_id'])
    .execute();

  await withSerialId(db, db.schema.createTable('users'))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('avatar', 'text')
    .addColumn('address', 'text')
    .addColumn('country_id', 'integer')
    .addColumn('role_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('birthday', 'text')
    .addColumn('last_login', 'text')
    .addColumn('two_factor_country_code', 'integer')
    .addColumn('two_factor_phone', 'text')
    .addColumn('two_factor_options', 'text')
    .addColumn('email_verified_at', 'text')
    .addColumn('notice', 'text')
    .addColumn('reference_id', 'text')
    .addColumn('template_id', 'integer', (c) => c.references('templates.id').onDelete('set null'))
    .addColumn('custom_verify_data', 'text')
    .addColumn('order_id', 'text')
    .addColumn('completion_url', 'text')
    .addColumn('redirect_url', 'text')
    .addColumn('dea_number', 'text')
    .addColumn('link_key', 'text', (c) => c.notNull().unique())
    .addColumn('ip', 'text')
    .addColumn('ip_country', 'text')
    .addColumn('last_activity', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // One index per filter and sort of the list endpoint (spec 4.17).
  for (const col of ['email', 'reference_id', 'status', 'first_name', 'last_name', 'created_at', 'updated_at']) {
    await db.schema.createIndex(`users_${col}_idx`).on('users').column(col).execute();
  }
  await db.schema
    .createIndex('users_email_lower_idx')
    .on('users')
    .expression(sql`lower(email)`)
    .execute();
  await createUserSearchIndex(db);

  await db.schema
    .createTable('user_verifications')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('method_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('attributes', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('remarks', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_verifications_pk', ['user_id', 'method_id'])
    .execute();

  await db.schema
    .createTable('user_workflows')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('workflow_raw_id', 'integer', (c) => c.notNull().references('workflows.raw_id').onDelete('cascade'))
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('remarks', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_workflows_pk', ['user_id', 'workflow_raw_id'])
    .execute();

  await db.schema
    .createTable('short_links')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('full_url', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    // No foreign key: events outlive nothing, but deleting a user must not wait on the relay.
    .addColumn('user_id', 'integer')
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('dispatched_at', 'text')
    .execute();
  await db.schema.createIndex('events_undispatched_idx').on('events').columns(['dispatched_at', 'occurred_at']).execute();
  await db.schema.createIndex('events_user_idx').on('events').column('user_id').execute();

  await withSerialId(db, db.schema.createTable('jobs'))
    .addColumn('queue', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('jobs_claim_idx').on('jobs').columns(['queue', 'state', 'run_at']).execute();
}

/**
 * `filter[search]` is a "contains" match over four columns (spec 4.17); a plain LIKE scans every
 * row. SQLite gets an FTS5 trigram index kept in step by triggers; PostgreSQL a pg_trgm GIN index
 * over the same lower-cased text.
 */
async function createUserSearchIndex(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index users_search_trgm_idx on users using gin (
      lower(coalesce(username, '') || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || email) gin_trgm_ops
    )`.execute(db);
    return;
  }
  await sql`create virtual table users_search using fts5(username, first_name, last_name, email, tokenize = 'trigram')`.execute(db);
  await sql`create trigger users_search_ai after insert on users begin
    insert into users_search(rowid, username, first_name, last_name, email) values (new.id, new.username, new.first_name, new.last_name, new.email);
  end`.execute(db);
  await sql`create trigger users_search_ad after delete on users begin
    delete from users_search where rowid = old.id;
  end`.execute(db);
  await sql`create trigger users_search_au after update of username, first_name, last_name, email on users begin
    update users_search set username = new.username, first_name = new.first_name, last_name = new.last_name, email = new.email where rowid = new.id;
  end`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists users_search`.execute(db);
  for (const t of [
    'jobs',
    'events',
    'short_links',
    'user_workflows',
    'user_verifications',
    'users',
    'template_workflows',
    'template_methods',
    'workflows',
    'templates',
    'settings',
    'admins',
    'api_keys',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
