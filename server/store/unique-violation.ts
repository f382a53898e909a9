/**
 * True for the unique-index violation of `table.column`: a concurrent transaction wrote the same
 * value between this one's check and its write (PostgreSQL runs such transactions side by side).
 * PostgreSQL names the constraint `<table>_<column>_key`; SQLite names the column in its message.
 */
export function isUniqueViolation(error: unknown, table: string, column: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint, message } = error as { code?: unknown; constraint?: unknown; message?: unknown };
  if (code === '23505') return constraint === `${table}_${column}_key`;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof message === 'string' && message.includes(`${table}.${column}`);
}
