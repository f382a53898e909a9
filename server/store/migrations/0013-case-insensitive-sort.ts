import { sql, type Kysely } from 'kysely';

/**
 * The list sorts first name, last name and e-mail without regard to case (user-list-query.ts
 * `sortExpression`): byte order put 'aaron' after 'Zoë'. Each sort gets an index on its
 * expression and the id, the tiebreaker, so a page is still read in index order on SQLite and
 * PostgreSQL. The plain first and last name indexes served only the old sort, and the one on
 * `lower(email)` is the new e-mail index's prefix (it serves `filter[email]` as well).
 */
const FOLDED = ['first_name', 'last_name', 'email'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_first_name_idx').execute();
  await db.schema.dropIndex('users_last_name_idx').execute();
  await db.schema.dropIndex('users_email_lower_idx').execute();
  for (const column of FOLDED) {
    await db.schema
      .createIndex(`users_${column}_sort_idx`)
      .on('users')
      .expression(sql`lower(${sql.ref(column)}), id`)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of FOLDED) await db.schema.dropIndex(`users_${column}_sort_idx`).execute();
  await db.schema.createIndex('users_first_name_idx').on('users').column('first_name').execute();
  await db.schema.createIndex('users_last_name_idx').on('users').column('last_name').execute();
  await db.schema
    .createIndex('users_email_lower_idx')
    .on('users')
    .expression(sql`lower(email)`)
    .execute();
}
