import type { Database as SqliteConnection } from 'better-sqlite3';
import { allRows, prepareRaw, type PreparedRawStatement } from './raw-statements.js';
import { openSqliteReader } from './sqlite-connection.js';
import type { UserListQuery } from '../repos/user-list-query.js';
import { searchUsersWith, type UserSearchResult } from './user-search.js';

/** A search for a thread of `UserSearchThreads`: the SQLite file to read and the query (none: just open the file). */
export interface UserSearchTask {
  file: string;
  query: (UserListQuery & { search: string }) | null;
}

interface Reader {
  connection: SqliteConnection;
  statements: Map<string, PreparedRawStatement<object>>;
}

/** This thread's connection to each file it has searched (a server has one), with its prepared statements. */
const readers = new Map<string, Reader>();

function readerOf(file: string): Reader {
  let reader = readers.get(file);
  if (!reader) {
    reader = { connection: openSqliteReader(file), statements: new Map() };
    readers.set(file, reader);
  }
  return reader;
}

/** Runs a search in this thread (the `handler` of the search threads' pool). */
export async function runUserSearch(task: UserSearchTask): Promise<UserSearchResult | null> {
  const { connection, statements } = readerOf(task.file);
  if (!task.query) return null;
  return searchUsersWith(<Row extends object>(sql: string, params: readonly unknown[]): Row[] => {
    let prepared = statements.get(sql);
    if (!prepared) {
      prepared = prepareRaw<object>(connection, sql);
      statements.set(sql, prepared);
    }
    return allRows(prepared as PreparedRawStatement<Row>, params);
  }, task.query);
}
