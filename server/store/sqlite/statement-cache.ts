import type { Database as SqliteConnection, Statement } from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Kysely prepares every query afresh; on the hot API paths preparing cost more than running. The
 * same SQL text always gives the same statement, so keep the most recent ones (kysely's SQL text
 * is stable per query shape; `in (?, ?, …)` lists make a few shapes per query, hence the bound).
 */
export function withStatementCache(db: SqliteConnection, capacity = 256): SqliteDatabase {
  const cache = new Map<string, Statement>();
  return {
    close: () => db.close(),
    prepare(sql: string): SqliteStatement {
      let statement = cache.get(sql);
      if (statement) {
        // Re-insert to mark as most recently used.
        cache.delete(sql);
      } else {
        statement = db.prepare(sql);
        if (cache.size >= capacity) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, statement);
      return statement as unknown as SqliteStatement;
    },
  };
}
