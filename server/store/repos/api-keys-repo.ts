import { hash, randomBytes } from 'node:crypto';
import { apiKeysChanged } from '../api-key-cache.js';
import type { Executor } from '../database.js';
import type { ApiKeyRow } from '../schema.js';

export const KEY_PREFIX = 'vk_live_';
export const DEFAULT_RATE_PER_SECOND = 5;
export const DEFAULT_RATE_PER_MINUTE = 300;

/** SHA-256, hex. Every customer API request hashes its key: the one-shot `hash` costs less than half a `createHash` chain. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** A new key: 256 random bits, prefixed so leaked keys can be found by secret scanners. */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export interface CreatedKey {
  row: ApiKeyRow;
  /** The only time the whole key exists outside the client: it is not stored. */
  key: string;
}

export async function createApiKey(
  ex: Executor,
  input: { name: string; ratePerSecond?: number | undefined; ratePerMinute?: number | undefined; now: Date },
): Promise<CreatedKey> {
  const key = generateApiKey();
  const row = await ex
    .insertInto('api_keys')
    .values({
      name: input.name,
      prefix: key.slice(0, KEY_PREFIX.length + 6),
      key_hash: hashApiKey(key),
      rate_per_second: input.ratePerSecond ?? DEFAULT_RATE_PER_SECOND,
      rate_per_minute: input.ratePerMinute ?? DEFAULT_RATE_PER_MINUTE,
      created_at: input.now.toISOString(),
      last_used_at: null,
      revoked_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, key };
}

/**
 * Looks a key up by its hash (the API-key cache is keyed by hash). The lookup is an index probe on
 * a SHA-256 digest, so response time does not depend on how much of a guessed key matches.
 */
export function findActiveKeyByHash(ex: Executor, keyHash: string): Promise<ApiKeyRow | undefined> {
  return ex.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).where('revoked_at', 'is', null).executeTakeFirst();
}

/** What the dashboard lists of a key: never its hash. */
export type ApiKeyListRow = Pick<ApiKeyRow, 'id' | 'name' | 'prefix' | 'created_at' | 'last_used_at' | 'revoked_at' | 'rate_per_second' | 'rate_per_minute'>;

/** One page of keys, newest first; `revoked` keeps only revoked (true) or only active (false) keys. */
export async function listApiKeysPage(
  ex: Executor,
  q: { revoked?: boolean; page: number; perPage: number },
): Promise<{ rows: ApiKeyListRow[]; total: number }> {
  let base = ex.selectFrom('api_keys');
  if (q.revoked === false) base = base.where('revoked_at', 'is', null);
  if (q.revoked === true) base = base.where('revoked_at', 'is not', null);
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .select(['id', 'name', 'prefix', 'created_at', 'last_used_at', 'revoked_at', 'rate_per_second', 'rate_per_minute'])
    .orderBy('id', 'desc')
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage)
    .execute();
  return { rows, total: Number(total) };
}

export function listApiKeys(ex: Executor): Promise<ApiKeyRow[]> {
  return ex.selectFrom('api_keys').selectAll().orderBy('id').execute();
}

export async function revokeApiKey(ex: Executor, id: number, now: Date): Promise<boolean> {
  const r = await ex.updateTable('api_keys').set({ revoked_at: now.toISOString() }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  const revoked = Number(r.numUpdatedRows) > 0;
  // Every process's cached keys go (server/store/api-key-cache.ts), this one's at once.
  if (revoked) apiKeysChanged();
  return revoked;
}

export async function touchApiKey(ex: Executor, id: number, now: Date): Promise<void> {
  await ex.updateTable('api_keys').set({ last_used_at: now.toISOString() }).where('id', '=', id).execute();
}
