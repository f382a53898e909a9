import { sql, type Kysely, type Migration } from 'kysely';
import { isSealedSigningSecret, openSigningSecret, sealSigningSecret } from '../../crypto/webhook-secrets.js';
import type { MigrationContext } from './helpers.js';

interface StoredSecrets {
  id: number;
  secret: string;
  previous_secret: string | null;
}

/**
 * Webhook signing secrets were stored in clear; from here on they are sealed under a key derived
 * from VERITY_SECRET (crypto/webhook-secrets.ts). This seals the rows written before: the current
 * secret and the previous one still signing during a rotation's overlap. Values already sealed
 * are left alone, so a half-done run (SQLite has no transactional DDL) is finished by the next.
 */
export function migration(context: MigrationContext): Migration {
  const serverSecret = (): string => {
    if (context.secret === undefined)
      throw new Error('Migration 0007-webhook-secret-encryption needs the server secret (VERITY_SECRET) to seal webhook signing secrets.');
    return context.secret;
  };
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const { rows } = await sql<StoredSecrets>`select id, secret, previous_secret from webhook_endpoints`.execute(db);
      for (const row of rows) {
        const secret = isSealedSigningSecret(row.secret) ? row.secret : sealSigningSecret(serverSecret(), row.secret);
        const previous =
          row.previous_secret === null || isSealedSigningSecret(row.previous_secret)
            ? row.previous_secret
            : sealSigningSecret(serverSecret(), row.previous_secret);
        if (secret === row.secret && previous === row.previous_secret) continue;
        await sql`update webhook_endpoints set secret = ${secret}, previous_secret = ${previous} where id = ${row.id}`.execute(db);
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      const { rows } = await sql<StoredSecrets>`select id, secret, previous_secret from webhook_endpoints`.execute(db);
      for (const row of rows) {
        const open = (v: string) => (isSealedSigningSecret(v) ? openSigningSecret(serverSecret(), v, row.id) : v);
        const previous = row.previous_secret === null ? null : open(row.previous_secret);
        await sql`update webhook_endpoints set secret = ${open(row.secret)}, previous_secret = ${previous} where id = ${row.id}`.execute(db);
      }
    },
  };
}
