import { sql, type Kysely, type Migration } from 'kysely';
import { SEAL_LABELS, sealerFor, type SealLabel } from '../../crypto/seal.js';
import type { MigrationContext } from './helpers.js';

interface StoredTotp {
  admin_id: number;
  sealed_secret: string;
}

/**
 * The admins' TOTP secrets were sealed under the notify label (one-time codes in jobs); from here
 * on they have a label of their own (crypto/seal.ts). This re-seals the rows written before. A
 * value that no longer opens under the old label is left alone: it was re-sealed already, so a
 * half-done run (SQLite has no transactional DDL) is finished by the next.
 */
export function migration(context: MigrationContext): Migration {
  const reseal = async (db: Kysely<unknown>, from: SealLabel, to: SealLabel): Promise<void> => {
    const { rows } = await sql<StoredTotp>`select admin_id, sealed_secret from admin_totp`.execute(db);
    if (rows.length === 0) return;
    if (context.secret === undefined) throw new Error('Migration 0016-admin-totp-seal-label needs the server secret (VERITY_SECRET) to re-seal TOTP secrets.');
    const [source, target] = [sealerFor(context.secret, from), sealerFor(context.secret, to)];
    for (const row of rows) {
      let clear: string;
      try {
        clear = source.open(row.sealed_secret);
      } catch {
        continue;
      }
      await sql`update admin_totp set sealed_secret = ${target.seal(clear)} where admin_id = ${row.admin_id}`.execute(db);
    }
  };
  return {
    up: (db) => reseal(db, SEAL_LABELS.notifyCode, SEAL_LABELS.adminTotpSecret),
    down: (db) => reseal(db, SEAL_LABELS.adminTotpSecret, SEAL_LABELS.notifyCode),
  };
}
