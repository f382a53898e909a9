import type { Generated, Kysely, Transaction } from 'kysely';
import type { Executor } from '../store/database.js';
import type { Database } from '../store/schema.js';

/** Tables of migration `0031-duplicates`. A type alias so it fits kysely's `withTables`. */
export type DuplicateTables = { identity_marks: IdentityMarkTable; duplicate_flags: DuplicateFlagTable };

export type MarkKind = 'document' | 'face';

/** What one capture left to compare later captures with: never an image. */
export interface IdentityMarkTable {
  id: Generated<number>;
  user_id: number;
  /** The verification whose capture it came from. */
  method_id: number;
  /** The capture (a document job's doc_id, a face challenge's id): a retry replaces its own marks. */
  source: string;
  kind: MarkKind;
  /** `document`: keyed digest (HMAC-SHA256, server secret) of the normalised type, issuer and number. */
  digest: string | null;
  /** `face`: the descriptor model and recipe (analysis/engines.ts `faceDescriptorModel`). */
  model: string | null;
  /** `face`: the float32 descriptor, sealed with the server secret. */
  vector: string | null;
  created_at: string;
}

/** One user's verification sharing a document or a face with another user's. */
export interface DuplicateFlagTable {
  id: Generated<number>;
  user_id: number;
  method_id: number;
  other_user_id: number;
  other_method_id: number;
  kind: MarkKind;
  /** Face similarity (0-1); null for a document number. */
  score: number | null;
  /** `new`: this user's capture found the other's mark; `earlier`: the other's capture found this one's. */
  role: 'new' | 'earlier';
  created_at: string;
}

export type DuplicateDatabase = Database & DuplicateTables;
export type DuplicateExecutor = Kysely<DuplicateDatabase> | Transaction<DuplicateDatabase>;

/** The same connection or transaction, typed with the duplicate tables as well. */
export function dupdb(ex: Executor): DuplicateExecutor {
  return ex.withTables<DuplicateTables>() as DuplicateExecutor;
}
