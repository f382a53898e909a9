import SQLite from 'better-sqlite3';

// The parts of a SQLite connection that the search threads need as well (user-search-threads.ts),
// kept apart from kysely and the migrations, which a thread would otherwise load for nothing.

/** The name of a SQL function on every SQLite connection: JavaScript's Unicode `toLowerCase`. */
export const UNICODE_LOWER = 'unicode_lower';

/** What every connection to the SQLite file needs to read it as the server does. */
export function prepareForReads(sqlite: SQLite.Database): void {
  // Reads map the file instead of copying each page through a read() into SQLite's 2 MB cache: a
  // user lookup at 100k users cost 15 % less (issue 2). The mapping is address space, not memory.
  sqlite.pragma('mmap_size = 268435456');
  // SQLite's lower() folds ASCII letters only. A search for a name with other letters must find it
  // in any case without the FTS index too (users not yet indexed, terms under three characters).
  sqlite.function(UNICODE_LOWER, { deterministic: true }, (text: unknown) => (typeof text === 'string' ? text.toLowerCase() : text));
}

/**
 * A read-only connection to a SQLite database that `openDatabase` has created and migrated, for
 * reads in another thread (`user-search-threads.ts`). WAL lets it read while the server writes;
 * each of its statements sees what was committed when the statement began.
 */
export function openSqliteReader(file: string): SQLite.Database {
  const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  prepareForReads(sqlite);
  return sqlite;
}
