import { sql, type Kysely, type Migration } from 'kysely';
import { openShortLinkUrl, sealShortLinkUrl } from '../../links/sealed-url.js';
import { isPostgres, type MigrationContext } from './helpers.js';

/**
 * `short_links.full_url` held whole signed magic links and hand-off URLs in clear, usable by anyone
 * who read the table (issue 18, point 5). The target is sealed now (`sealed_url`,
 * links/short-links.ts): this seals the rows written before and drops the clear column. Each step
 * looks at what is there first, so a run cut short (SQLite migrates without a transaction) is
 * finished by the next.
 */
export function migration(context: MigrationContext): Migration {
  const serverSecret = (): string => {
    if (context.secret === undefined) throw new Error('Migration 0017-sealed-short-links needs the server secret (VERITY_SECRET) to seal short links.');
    return context.secret;
  };
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      let columns = await columnsOf(db);
      if (!columns.includes('sealed_url')) await db.schema.alterTable('short_links').addColumn('sealed_url', 'text').execute();
      columns = await columnsOf(db);
      if (columns.includes('full_url')) {
        const { rows } = await sql<{ code: string; full_url: string }>`select code, full_url from short_links where sealed_url is null`.execute(db);
        for (const row of rows) {
          await sql`update short_links set sealed_url = ${sealShortLinkUrl(serverSecret(), row.full_url)} where code = ${row.code}`.execute(db);
        }
        await db.schema.alterTable('short_links').dropColumn('full_url').execute();
      }
      if (isPostgres(db)) await sql`alter table short_links alter column sealed_url set not null`.execute(db);
      // SQLite: the clear URLs' old page images leave the WAL now (the file's copies were zeroed by
      // secure_delete as the column went).
      else await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('short_links').addColumn('full_url', 'text').execute();
      const { rows } = await sql<{ code: string; sealed_url: string }>`select code, sealed_url from short_links`.execute(db);
      for (const row of rows) {
        const url = openShortLinkUrl(serverSecret(), row.sealed_url);
        if (url === null) await sql`delete from short_links where code = ${row.code}`.execute(db);
        else await sql`update short_links set full_url = ${url} where code = ${row.code}`.execute(db);
      }
      await db.schema.alterTable('short_links').dropColumn('sealed_url').execute();
    },
  };
}

async function columnsOf(db: Kysely<unknown>): Promise<string[]> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ name: string }>`select column_name as name from information_schema.columns
      where table_schema = current_schema() and table_name = 'short_links'`.execute(db);
    return rows.map((r) => r.name);
  }
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info('short_links')`.execute(db);
  return rows.map((r) => r.name);
}
