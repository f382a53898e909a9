import { expressionBuilder, sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { ExecutorWith, OwnTables } from '../store/database.js';
import type { Database } from '../store/schema.js';

/** A method's own tables whose rows have the column `C` (of type `V`). */
type TablesWith<T, C extends string, V> = { [K in keyof T]: T[K] extends Record<C, V> ? K : never }[keyof T] & string;

/** Picks the row of `table` a statement changes, typed with the method's own database. */
type RowMatch<T extends OwnTables, TB extends keyof T & string> = (eb: ExpressionBuilder<Database & T, TB>) => Expression<SqlBool>;

/*
 * Methods that limit tries or use something up write the same statements on their own tables
 * (Bank's deposits, Two-Step's factor and recovery codes, the one-time codes). Kysely's update
 * builder cannot be typed over a table name that is itself a type parameter, so these follow
 * kysely's reusable-helper recipe: the row is picked by the caller's fully typed expression, the
 * table is constrained to one that has the column, and the shared part is one `sql` statement.
 */

/**
 * Takes one try on the row `match` picks, in the statement that checks the limit (so requests
 * at once cannot pass `max` together): the tries now used, or undefined when none is left or no
 * row matches.
 */
export async function takeOneTry<T extends OwnTables, TB extends TablesWith<T, 'attempts', number>>(
  db: ExecutorWith<T>,
  table: TB,
  max: number,
  match: RowMatch<T, TB>,
): Promise<number | undefined> {
  const row = match(expressionBuilder<Database & T, TB>());
  const { rows } = await sql<{ attempts: number }>`update ${sql.table(table)} set attempts = attempts + 1
    where ${row} and attempts < ${max} returning attempts`.execute(db);
  return rows[0]?.attempts;
}

/**
 * Uses the row `match` picks up, once (`used_at` is set when it was null): false when it was
 * used already, also by a request at the same moment, or no row matches.
 */
export async function useOnce<T extends OwnTables, TB extends TablesWith<T, 'used_at', string | null>>(
  db: ExecutorWith<T>,
  table: TB,
  at: Date,
  match: RowMatch<T, TB>,
): Promise<boolean> {
  const row = match(expressionBuilder<Database & T, TB>());
  const result = await sql`update ${sql.table(table)} set used_at = ${at.toISOString()} where ${row} and used_at is null`.execute(db);
  return (result.numAffectedRows ?? 0n) > 0n;
}
