import { PostgresAdapter, type CreateTableBuilder, type DialectAdapter, type Kysely } from 'kysely';

/** True on PostgreSQL; takes any Kysely instance or transaction, whatever its table types. */
export function isPostgres(db: { getExecutor(): { readonly adapter: DialectAdapter } }): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An auto-incrementing integer primary key on either dialect. */
export function withSerialId<T extends string>(db: Kysely<unknown>, table: CreateTableBuilder<T, never>, column = 'id'): CreateTableBuilder<T, never> {
  return isPostgres(db) ? table.addColumn(column, 'serial', (c) => c.primaryKey()) : table.addColumn(column, 'integer', (c) => c.primaryKey().autoIncrement());
}

/** What a data migration may need beyond the database (migrations that do not need it ignore it). */
export interface MigrationContext {
  /** The server secret (VERITY_SECRET): migrations that seal or open stored secrets need it. */
  secret?: string | undefined;
}
