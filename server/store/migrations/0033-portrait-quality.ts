import type { Kysely } from 'kysely';

/**
 * The document portrait's quality beside its descriptor (issue 20, face match): JSON of the
 * detector's scores, the face's size and light (server/analysis/stages/portrait.ts). A later
 * selfie, liveness or video match with that portrait uses it for its decision band; rows from
 * before keep it null and are matched with the band of a portrait of unknown quality.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('document_jobs').addColumn('portrait_quality', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('document_jobs').dropColumn('portrait_quality').execute();
}
